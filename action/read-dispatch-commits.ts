import type { ActionContext } from "./action-context.js";

/**
 * What one workflow_dispatch input says the round's code comes from, read from its value (its name
 * is the workflow's to choose): a commit, an abbreviated one, a pull request, or a URL the fence
 * cannot trace to one of the repository's commits.
 */
export type DispatchClaim =
  | { input: string; kind: "commit"; sha: string }
  | { input: string; kind: "abbreviation"; revision: string }
  /** `explicit`: the value says it is a pull request (`refs/pull/5/head`, `#5`, a pull request's URL), not only a number. */
  | { input: string; kind: "pull"; number: number; explicit: boolean }
  | { input: string; kind: "untraceable"; value: string; why: string };

const FULL_SHA = /\b[0-9a-f]{40}(?:[0-9a-f]{24})?\b/gi;
/** Where GitHub serves a repository's pull requests, commits and their patches, besides the server itself. */
const GITHUB_HOSTS = ["github.com", "www.github.com", "api.github.com", "patch-diff.githubusercontent.com", "raw.githubusercontent.com"];

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function commitsIn(input: string, text: string): DispatchClaim[] {
  return [...text.matchAll(FULL_SHA)].map((match) => ({ input, kind: "commit" as const, sha: match[0].toLowerCase() }));
}

/** A URL: only one of this repository's pull requests or commits, on its server, can be checked. */
function readUrl(input: string, value: string, context: ActionContext): DispatchClaim[] {
  const untraceable = (why: string): DispatchClaim[] => [{ input, kind: "untraceable", value, why }];
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
  } catch {
    return untraceable("it is not a URL the fence can read");
  }
  const server = new URL(context.serverUrl).host.toLowerCase();
  if (url.host.toLowerCase() !== server && !GITHUB_HOSTS.includes(url.host.toLowerCase())) {
    return untraceable(`it is on ${url.host}, not on ${server}: a patch from there can be anyone's`);
  }
  const repository = context.repository;
  const segments = url.pathname.split("/").map((segment) => decodeURIComponent(segment).toLowerCase());
  const at = repository
    ? segments.findIndex(
        (segment, index) =>
          segment === repository.owner.toLowerCase() && segments[index + 1]?.replace(/\.git$/, "") === repository.repo.toLowerCase(),
      )
    : -1;
  if (!repository || at < 0) return untraceable("it is not a URL of this repository");
  const [what = "", which = ""] = segments.slice(at + 2);
  const pull = /^(\d+)(?:\.(?:patch|diff))?$/.exec(which);
  if ((what === "pull" || what === "pulls") && pull) return [{ input, kind: "pull", number: Number(pull[1]), explicit: true }];
  const commits = commitsIn(input, segments.slice(at + 2).join("/"));
  return commits.length > 0 ? commits : untraceable("it names none of the repository's pull requests or commits by number or SHA");
}

function readValue(input: string, value: string, context: ActionContext): DispatchClaim[] {
  const text = value.trim();
  if (/:\/\/|^www\./i.test(text) || /^[\w.-]+\.[a-z]{2,}\//i.test(text)) return readUrl(input, text, context);
  const number = /^(#?)(\d+)$/.exec(text);
  if (number) return [{ input, kind: "pull", number: Number(number[2]), explicit: number[1] === "#" }];
  const claims: DispatchClaim[] = [];
  const pull = /(?:^|\/)pulls?\/(\d+)(?:\/|$)/i.exec(text);
  if (pull) claims.push({ input, kind: "pull", number: Number(pull[1]), explicit: true });
  // The ways people write a pull request's number in a word (PR-5, pr#5, pull_5): one if the remote has it, as a bare number.
  const named = pull ? null : /(?:^|[^a-z])(?:pr|pulls?)[-_ #]?(\d+)\b/i.exec(text);
  if (named) claims.push({ input, kind: "pull", number: Number(named[1]), explicit: false });
  claims.push(...commitsIn(input, text));
  if (claims.length === 0 && /^[0-9a-f]{7,39}$/i.test(text) && /[a-f]/i.test(text)) {
    claims.push({ input, kind: "abbreviation", revision: text.toLowerCase() });
  }
  return claims;
}

/**
 * Every commit, pull request or URL a workflow_dispatch's inputs name, whatever the inputs are
 * called: `{sha}`, `{head_sha}`, `{number}`, `{ref: refs/pull/5/head}`, `{patch_url}` all say where
 * the code a workflow hands the action comes from. A number counts as a pull request's number (the
 * fence asks the remote whether it has one); words that name no commit (a branch, a count's unit,
 * `true`) say nothing and are left out.
 */
export function readDispatchCommits(context: ActionContext): DispatchClaim[] {
  if (context.eventName !== "workflow_dispatch") return [];
  const inputs = field(context.payload, "inputs");
  if (typeof inputs !== "object" || inputs === null) return [];
  const claims: DispatchClaim[] = [];
  for (const [input, value] of Object.entries(inputs)) {
    if (typeof value === "string" || typeof value === "number") claims.push(...readValue(input, String(value), context));
  }
  return claims;
}
