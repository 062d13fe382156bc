import type { FakeGitHub, FakeRequest, FakeResponse } from "./fake-github-server.js";

/*
 * The routes the app uses on one repository, served with state. A test opts in to route groups; any
 * other request is a violation.
 */

export interface FakePull {
  number: number;
  headSha: string;
  headRepo: string;
  headBranch: string;
  author: string;
  state?: "open" | "closed";
  /** The base branch's commit, which the action's patch-from-pr compares the head with. */
  baseSha?: string;
  /** When the head branch was pushed to headSha (the activity API's timestamp); an hour ago by default. */
  pushedAt?: string;
  /** The commit that merged it into the default branch: GitHub lists the pull request for that commit too. */
  mergeCommitSha?: string;
}

/** A commit of the repository's history (group "commits"): what compare and GET commits/{ref} serve. */
export interface FakeCommit {
  sha: string;
  /** The first parent first. */
  parents: string[];
  message: string;
  /** Committer date, ISO 8601. */
  date: string;
}

export type RouteGroup =
  "app" | "config" | "pulls" | "comments" | "checks" | "permissions" | "dispatch" | "reactions" | "artifacts" | "issues" | "commits";

export interface FakeRepositoryOptions {
  owner: string;
  repo: string;
  appId: number;
  /** Text of the app's config, .github/speedgate-app.yml, or null for none. */
  config?: string | null;
  /** Text of .github/speedgate.yml, the app config's name before #23. */
  legacyConfig?: string;
  /** Other files on the repository's default branch, by path (the round config the app reads its scenario bars from). */
  files?: Record<string, string>;
  /** Files of the owner's `.github` repository, by path (the organisation's defaults). */
  ownerFiles?: Record<string, string>;
  pulls?: FakePull[];
  /** role_name per login; unknown logins get 404. */
  roles?: Record<string, string>;
  /** Artifact zips per workflow run id. */
  artifacts?: Record<number, Uint8Array>;
  /** Workflow files on the default branch that can be dispatched; any name when not given. */
  workflows?: string[];
  /**
   * What the default branch requires (group "checks"): branch protection's required checks, each with the
   * app it must come from (null: any), and rulesets' (integration_id left out: any). Nothing by default.
   */
  requiredChecks?: {
    protection?: Array<{ context: string; appId: number | null }>;
    rulesets?: Array<{ context: string; integrationId?: number }>;
  };
  /**
   * The workflow_dispatch inputs the workflow declares; GitHub refuses a dispatch with any other (422,
   * "Unexpected inputs provided"). Any input is accepted when not given.
   */
  workflowInputs?: string[];
  /** The history served by group "commits" (compare, GET commits/{ref}). */
  commits?: FakeCommit[];
  groups?: RouteGroup[];
}

export interface FakeRepository {
  pulls: FakePull[];
  dispatches: Array<{ workflow: string; ref: string; inputs: Record<string, string>; runId: number }>;
  reactions: Array<{ commentId: number; content: string }>;
  artifacts: Map<number, Uint8Array>;
  /** Issues the app opened (the leaderboard), with whether GraphQL's pinIssue pinned them. */
  issues: FakeIssue[];
}

export interface FakeIssue {
  number: number;
  nodeId: string;
  title: string;
  body: string;
  login: string;
  pinned: boolean;
  /** How many times the body was written (opened, then each edit). */
  writes: number;
}

const ALL_GROUPS: RouteGroup[] = [
  "app",
  "config",
  "pulls",
  "comments",
  "checks",
  "permissions",
  "dispatch",
  "reactions",
  "artifacts",
  "issues",
  "commits",
];
export const DEFAULT_BASE_SHA = "ba5e".repeat(10);
const notFound: FakeResponse = { status: 404, body: { message: "Not Found" } };
const COMMENT_TOO_LONG: FakeResponse = { status: 422, body: { message: "body is too long (maximum is 65536 characters)" } };

/** GitHub counts a comment's 65,536 characters as code points: an emoji is one, not two UTF-16 units. */
function commentTooLong(text: string): boolean {
  return text.length > 65_536 && [...text].length > 65_536;
}

export function serveRepository(fake: FakeGitHub, options: FakeRepositoryOptions): FakeRepository {
  const fullName = `${options.owner}/${options.repo}`;
  const groups = new Set(options.groups ?? ALL_GROUPS);
  const state: FakeRepository = {
    pulls: options.pulls ?? [],
    dispatches: [],
    reactions: [],
    artifacts: new Map(Object.entries(options.artifacts ?? {}).map(([id, zip]) => [Number(id), zip])),
    issues: [],
  };
  const ours = (request: FakeRequest): boolean =>
    `${request.pathParams.owner ?? ""}/${request.pathParams.repo ?? ""}`.toLowerCase() === fullName.toLowerCase();
  const on = (method: string, template: string, handler: (request: FakeRequest) => FakeResponse): void => {
    fake.on(method, template, (request) => (template.startsWith("/repos/") && !ours(request) ? notFound : handler(request)));
  };
  const pullJson = (pull: FakePull): Record<string, unknown> => ({
    id: pull.number * 10,
    number: pull.number,
    state: pull.state ?? "open",
    html_url: `https://github.com/${fullName}/pull/${pull.number}`,
    user: { login: pull.author, type: "User" },
    head: { sha: pull.headSha, ref: pull.headBranch, repo: { full_name: pull.headRepo } },
    base: { ref: "main", sha: pull.baseSha ?? DEFAULT_BASE_SHA, repo: { full_name: fullName } },
  });
  const commentJson = (comment: FakeGitHub["comments"][number]): Record<string, unknown> => ({
    id: comment.id,
    body: comment.body,
    user: { login: comment.login, type: comment.type },
    created_at: comment.createdAt,
    html_url: `https://github.com/${fullName}/pull/${comment.issueNumber}#issuecomment-${comment.id}`,
  });
  const checkJson = (check: FakeGitHub["checkRuns"][number]): Record<string, unknown> => ({
    id: check.id,
    name: check.name,
    head_sha: check.headSha,
    status: check.status,
    conclusion: check.conclusion,
    external_id: check.externalId,
    details_url: check.detailsUrl,
    output: { title: check.title, summary: check.summary },
    app: { id: check.appId, slug: "speedgate" },
  });
  const body = (request: FakeRequest): Record<string, unknown> => (request.body ?? {}) as Record<string, unknown>;

  if (groups.has("app")) {
    fake.on("POST", "/app/installations/{installation_id}/access_tokens", () => ({
      status: 201,
      body: { token: "ghs_fake", expires_at: "2099-01-01T00:00:00Z", permissions: {}, repository_selection: "all" },
    }));
    fake.on("GET", "/app", () => ({ status: 200, body: { id: options.appId, slug: "speedgate", name: "speedgate" } }));
  }
  if (groups.has("config")) {
    const own: Record<string, string> = {
      ...options.files,
      ...(typeof options.config === "string" ? { ".github/speedgate-app.yml": options.config } : {}),
      ...(options.legacyConfig !== undefined ? { ".github/speedgate.yml": options.legacyConfig } : {}),
    };
    const ownersRepository = `${options.owner}/.github`.toLowerCase();
    fake.on("GET", "/repos/{owner}/{repo}/contents/{path}", (request) => {
      const repository = `${request.pathParams.owner ?? ""}/${request.pathParams.repo ?? ""}`.toLowerCase();
      const files = repository === fullName.toLowerCase() ? own : repository === ownersRepository ? (options.ownerFiles ?? {}) : {};
      const text = files[request.pathParams.path ?? ""];
      return text === undefined
        ? notFound
        : { status: 200, body: text, headers: { "content-type": "application/vnd.github.raw; charset=utf-8" } };
    });
  }
  if (groups.has("pulls")) {
    on("GET", "/repos/{owner}/{repo}/pulls", (request) => {
      const head = request.query.get("head");
      const listed = state.pulls.filter(
        (pull) =>
          (pull.state ?? "open") === (request.query.get("state") ?? "open") &&
          (!head || head === `${pull.headRepo.split("/")[0]}:${pull.headBranch}`),
      );
      return { status: 200, body: listed.map(pullJson) };
    });
    on("GET", "/repos/{owner}/{repo}/pulls/{pull_number}", (request) => {
      const pull = state.pulls.find((candidate) => String(candidate.number) === request.pathParams.pull_number);
      return pull ? { status: 200, body: pullJson(pull) } : notFound;
    });
    // The head repository's activity (a fork's too): each pull request's head push, by GitHub's clock.
    fake.on("GET", "/repos/{owner}/{repo}/activity", (request) => {
      const repository = `${request.pathParams.owner ?? ""}/${request.pathParams.repo ?? ""}`.toLowerCase();
      const ref = request.query.get("ref") ?? "";
      const pushes = state.pulls.filter(
        (pull) =>
          pull.headRepo.toLowerCase() === repository && (ref === "" || ref === `refs/heads/${pull.headBranch}` || ref === pull.headBranch),
      );
      if (pushes.length === 0 && repository !== fullName.toLowerCase()) return notFound;
      return {
        status: 200,
        body: pushes.map((pull) => ({
          id: pull.number * 100,
          node_id: `A_${pull.number}`,
          before: "0".repeat(40),
          after: pull.headSha,
          ref: `refs/heads/${pull.headBranch}`,
          timestamp: pull.pushedAt ?? new Date(Date.now() - 3_600_000).toISOString(),
          activity_type: "push",
          actor: { login: pull.author, id: 1, type: "User" },
        })),
      };
    });
    on("GET", "/repos/{owner}/{repo}/commits/{commit_sha}/pulls", (request) => ({
      status: 200,
      body: state.pulls
        .filter((pull) => pull.headSha === request.pathParams.commit_sha || pull.mergeCommitSha === request.pathParams.commit_sha)
        .map(pullJson),
    }));
  }
  if (groups.has("comments")) {
    on("GET", "/repos/{owner}/{repo}/issues/{issue_number}/comments", (request) => {
      const perPage = Number(request.query.get("per_page") ?? "30");
      const page = Number(request.query.get("page") ?? "1");
      const all = fake.comments.filter((comment) => String(comment.issueNumber) === request.pathParams.issue_number);
      return { status: 200, body: all.slice((page - 1) * perPage, page * perPage).map(commentJson) };
    });
    on("POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments", (request) => {
      const text = String(body(request).body);
      if (commentTooLong(text)) return COMMENT_TOO_LONG;
      const comment = {
        id: fake.nextId(),
        issueNumber: Number(request.pathParams.issue_number),
        body: text,
        login: "speedgate[bot]",
        type: "Bot" as const,
        createdAt: fake.now(),
      };
      fake.comments.push(comment);
      return { status: 201, body: commentJson(comment) };
    });
    on("PATCH", "/repos/{owner}/{repo}/issues/comments/{comment_id}", (request) => {
      const comment = fake.comments.find((candidate) => String(candidate.id) === request.pathParams.comment_id);
      if (!comment) return notFound;
      const text = String(body(request).body);
      if (commentTooLong(text)) return COMMENT_TOO_LONG;
      comment.body = text;
      return { status: 200, body: commentJson(comment) };
    });
    on("DELETE", "/repos/{owner}/{repo}/issues/comments/{comment_id}", (request) => {
      const index = fake.comments.findIndex((candidate) => String(candidate.id) === request.pathParams.comment_id);
      if (index < 0) return notFound;
      fake.comments.splice(index, 1);
      return { status: 204 };
    });
  }
  if (groups.has("checks")) {
    on("GET", "/repos/{owner}/{repo}/commits/{ref}/check-runs", (request) => {
      const name = request.query.get("check_name");
      const appId = request.query.get("app_id");
      const runs = fake.checkRuns.filter(
        (check) => check.headSha === request.pathParams.ref && (!name || check.name === name) && (!appId || String(check.appId) === appId),
      );
      return { status: 200, body: { total_count: runs.length, check_runs: runs.map(checkJson) } };
    });
    const applyCheck = (check: FakeGitHub["checkRuns"][number], fields: Record<string, unknown>): FakeResponse | null => {
      const output = fields.output as { title?: string; summary?: string; text?: string } | undefined;
      for (const key of ["summary", "text"] as const) {
        const value = output?.[key];
        // Documented as 65,535 "characters", refused by GitHub past 65,535 UTF-8 bytes (github/rest-api-description#5399).
        if (value !== undefined && Buffer.byteLength(value, "utf8") > 65_535) {
          return { status: 422, body: { message: `output.${key} is too long (maximum is 65535 characters)` } };
        }
      }
      if (fields.conclusion === "action_required" && !fields.details_url && !check.detailsUrl) {
        return { status: 422, body: { message: "details_url is required for action_required" } };
      }
      if (typeof fields.status === "string") check.status = fields.status;
      if (typeof fields.conclusion === "string") {
        check.conclusion = fields.conclusion;
        check.status = "completed";
      }
      if (output?.title !== undefined) check.title = output.title;
      if (output?.summary !== undefined) check.summary = output.summary;
      if (output?.text !== undefined) check.text = output.text;
      if (typeof fields.external_id === "string") check.externalId = fields.external_id;
      if (typeof fields.details_url === "string") check.detailsUrl = fields.details_url;
      return null;
    };
    on("POST", "/repos/{owner}/{repo}/check-runs", (request) => {
      const fields = body(request);
      const check = {
        id: fake.nextId(),
        name: String(fields.name),
        headSha: String(fields.head_sha),
        status: "queued",
        conclusion: null,
        title: null,
        summary: null,
        externalId: null,
        detailsUrl: null,
        appId: options.appId,
      };
      const refused = applyCheck(check, fields);
      if (refused) return refused;
      fake.checkRuns.push(check);
      return { status: 201, body: checkJson(check) };
    });
    // Which source the required `speedgate` check expects: branch protection, then rulesets.
    on("GET", "/repos/{owner}/{repo}/branches/{branch}", (request) => {
      const checks = options.requiredChecks?.protection ?? [];
      const protection =
        checks.length > 0
          ? {
              enabled: true,
              required_status_checks: {
                enforcement_level: "non_admins",
                contexts: checks.map((check) => check.context),
                checks: checks.map((check) => ({ context: check.context, app_id: check.appId })),
              },
            }
          : { enabled: false, required_status_checks: { enforcement_level: "off", contexts: [], checks: [] } };
      const branch = request.pathParams.branch ?? "";
      return {
        status: 200,
        body: {
          name: branch,
          commit: { sha: DEFAULT_BASE_SHA },
          _links: { html: "", self: "" },
          protected: checks.length > 0,
          protection,
          protection_url: "",
        },
      };
    });
    on("GET", "/repos/{owner}/{repo}/rules/branches/{branch}", () => {
      const checks = options.requiredChecks?.rulesets ?? [];
      const rules =
        checks.length > 0
          ? [
              {
                type: "required_status_checks",
                ruleset_source_type: "Repository",
                ruleset_source: fullName,
                ruleset_id: 42,
                parameters: {
                  strict_required_status_checks_policy: false,
                  required_status_checks: checks.map((check) => ({
                    context: check.context,
                    ...(check.integrationId !== undefined ? { integration_id: check.integrationId } : {}),
                  })),
                },
              },
            ]
          : [];
      return { status: 200, body: rules };
    });
    on("PATCH", "/repos/{owner}/{repo}/check-runs/{check_run_id}", (request) => {
      const check = fake.checkRuns.find((candidate) => String(candidate.id) === request.pathParams.check_run_id);
      if (!check) return notFound;
      return applyCheck(check, body(request)) ?? { status: 200, body: checkJson(check) };
    });
  }
  if (groups.has("permissions")) {
    on("GET", "/repos/{owner}/{repo}/collaborators/{username}/permission", (request) => {
      const role = options.roles?.[request.pathParams.username ?? ""];
      if (!role) return notFound;
      const permission = role === "maintain" ? "write" : role === "triage" ? "read" : role;
      return { status: 200, body: { permission, role_name: role, user: { login: request.pathParams.username } } };
    });
  }
  if (groups.has("dispatch")) {
    on("POST", "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", (request) => {
      const fields = body(request) as { ref: string; inputs?: Record<string, string> };
      if (options.workflows && !options.workflows.includes(request.pathParams.workflow_id ?? "")) return notFound;
      const unexpected = Object.keys(fields.inputs ?? {}).filter(
        (name) => options.workflowInputs && !options.workflowInputs.includes(name),
      );
      if (unexpected.length > 0) return { status: 422, body: { message: `Unexpected inputs provided: ${JSON.stringify(unexpected)}` } };
      const runId = fake.nextId();
      state.dispatches.push({ workflow: request.pathParams.workflow_id ?? "", ref: fields.ref, inputs: fields.inputs ?? {}, runId });
      return {
        status: 200,
        body: {
          workflow_run_id: runId,
          run_url: `${fake.apiUrl}/repos/${fullName}/actions/runs/${runId}`,
          html_url: `https://github.com/${fullName}/actions/runs/${runId}`,
        },
      };
    });
  }
  if (groups.has("reactions")) {
    on("POST", "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", (request) => {
      const content = String(body(request).content);
      state.reactions.push({ commentId: Number(request.pathParams.comment_id), content });
      return { status: 201, body: { id: fake.nextId(), content } };
    });
  }
  if (groups.has("artifacts")) {
    on("GET", "/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts", (request) => {
      const runId = Number(request.pathParams.run_id);
      const zip = state.artifacts.get(runId);
      const artifacts = zip
        ? [{ id: runId + 1, name: "speedgate-scorecard", size_in_bytes: zip.byteLength, expired: false, archive_download_url: "" }]
        : [];
      return { status: 200, body: { total_count: artifacts.length, artifacts } };
    });
    on("GET", "/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}", (request) => {
      const runId = Number(request.pathParams.artifact_id) - 1;
      const zip = state.artifacts.get(runId);
      if (!zip || request.pathParams.archive_format !== "zip") return notFound;
      const blob = `artifact-${runId}.zip`;
      fake.blobs.set(blob, zip);
      return { status: 302, headers: { location: `${fake.url}/_blobs/${blob}` } };
    });
  }
  if (groups.has("issues")) {
    const issueJson = (issue: FakeIssue): Record<string, unknown> => ({
      id: issue.number * 7,
      node_id: issue.nodeId,
      number: issue.number,
      title: issue.title,
      body: issue.body,
      state: "open",
      user: { login: issue.login, type: "Bot" },
      html_url: `https://github.com/${fullName}/issues/${issue.number}`,
    });
    on("GET", "/repos/{owner}/{repo}/issues", (request) => {
      const creator = request.query.get("creator");
      return { status: 200, body: state.issues.filter((issue) => !creator || issue.login === creator).map(issueJson) };
    });
    on("POST", "/repos/{owner}/{repo}/issues", (request) => {
      const number = 500 + state.issues.length;
      const issue: FakeIssue = {
        number,
        nodeId: `I_${number}`,
        title: String(body(request).title),
        body: typeof body(request).body === "string" ? String(body(request).body) : "",
        login: "speedgate[bot]",
        pinned: false,
        writes: 1,
      };
      state.issues.push(issue);
      return { status: 201, body: issueJson(issue) };
    });
    on("PATCH", "/repos/{owner}/{repo}/issues/{issue_number}", (request) => {
      const issue = state.issues.find((candidate) => String(candidate.number) === request.pathParams.issue_number);
      if (!issue) return notFound;
      if (typeof body(request).body === "string") issue.body = String(body(request).body);
      if (typeof body(request).title === "string") issue.title = String(body(request).title);
      issue.writes++;
      return { status: 200, body: issueJson(issue) };
    });
    // GitHub pins an issue only through GraphQL.
    fake.onGraphql((request) => {
      const issue = state.issues.find((candidate) => candidate.nodeId === request.variables.issueId);
      if (!/\bpinIssue\b/.test(request.query) || !issue)
        return { status: 200, body: { data: null, errors: [{ message: "Could not resolve to a node with the global id" }] } };
      issue.pinned = true;
      return { status: 200, body: { data: { pinIssue: { issue: { number: issue.number, isPinned: true } } } } };
    });
  }
  if (groups.has("commits")) serveCommits(on, fullName, options.commits ?? []);
  return state;
}

/** compare (base...head: every commit reachable from head and not from base, oldest first, paged) and one commit by SHA or prefix. */
function serveCommits(
  on: (method: string, template: string, handler: (request: FakeRequest) => FakeResponse) => void,
  fullName: string,
  commits: readonly FakeCommit[],
): void {
  const bySha = new Map(commits.map((commit) => [commit.sha, commit]));
  const find = (ref: string): FakeCommit | undefined =>
    bySha.get(ref) ?? (ref.length >= 7 ? commits.find((commit) => commit.sha.startsWith(ref)) : undefined);
  const commitJson = (commit: FakeCommit): Record<string, unknown> => ({
    sha: commit.sha,
    node_id: `C_${commit.sha.slice(0, 8)}`,
    url: `https://api.github.com/repos/${fullName}/commits/${commit.sha}`,
    html_url: `https://github.com/${fullName}/commit/${commit.sha}`,
    parents: commit.parents.map((sha) => ({ sha, url: "", html_url: "" })),
    commit: {
      message: commit.message,
      author: { name: "dev", email: "dev@example.com", date: commit.date },
      committer: { name: "dev", email: "dev@example.com", date: commit.date },
    },
  });
  const reachable = (from: FakeCommit): Set<string> => {
    const seen = new Set<string>();
    const stack = [from.sha];
    while (stack.length > 0) {
      const sha = stack.pop() ?? "";
      if (seen.has(sha)) continue;
      seen.add(sha);
      for (const parent of bySha.get(sha)?.parents ?? []) stack.push(parent);
    }
    return seen;
  };
  on("GET", "/repos/{owner}/{repo}/commits/{ref}", (request) => {
    const commit = find(request.pathParams.ref ?? "");
    return commit ? { status: 200, body: commitJson(commit) } : { status: 404, body: { message: "No commit found for SHA" } };
  });
  on("GET", "/repos/{owner}/{repo}/compare/{basehead}", (request) => {
    const [baseRef = "", headRef = ""] = (request.pathParams.basehead ?? "").split("...");
    const base = find(baseRef);
    const head = find(headRef);
    if (!base || !head) return { status: 404, body: { message: "Not Found" } };
    const excluded = reachable(base);
    const fromHead = reachable(head);
    const listed = commits.filter((commit) => fromHead.has(commit.sha) && !excluded.has(commit.sha));
    const perPage = Number(request.query.get("per_page") ?? "250");
    const page = Number(request.query.get("page") ?? "1");
    return {
      status: 200,
      body: {
        status: listed.length > 0 ? "ahead" : "identical",
        ahead_by: listed.length,
        behind_by: 0,
        total_commits: listed.length,
        base_commit: commitJson(base),
        merge_base_commit: commitJson(base),
        commits: listed.slice((page - 1) * perPage, page * perPage).map(commitJson),
        files: [],
      },
    };
  });
}
