import { CARD_MARKER } from "../scorecard/render/render-markdown.js";
import { type GitHubClient, type RepoRef, statusOf } from "./github-client.js";

/** GitHub refuses issue comments longer than this. */
export const MAX_COMMENT_CHARS = 65_536;

export interface IssueComment {
  id: number;
  body: string;
  createdAt: string;
  userType: string | null;
  login: string | null;
}

export interface UpsertCardCommentOptions extends RepoRef {
  issueNumber: number;
  body: string;
  marker?: string;
  /**
   * Whose marked comments count as the card: by default any bot's (the app, or github-actions[bot]
   * for the action's GITHUB_TOKEN); a login when the action posts with a personal token.
   */
  authorLogin?: string;
  /**
   * Called with the body of the comment already there; returning false keeps it (for example when it
   * holds a card from a newer run than this one).
   */
  shouldReplace?: (existingBody: string) => boolean;
}

export interface UpsertResult {
  commentId: number;
  action: "created" | "updated" | "kept";
  /** Extra marked comments removed (left by a race between two app replicas or a restart). */
  removed: number;
}

function toComment(value: unknown): IssueComment | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as { id?: unknown; body?: unknown; created_at?: unknown; user?: { type?: unknown; login?: unknown } | null };
  if (typeof record.id !== "number") return null;
  return {
    id: record.id,
    body: typeof record.body === "string" ? record.body : "",
    createdAt: typeof record.created_at === "string" ? record.created_at : "",
    userType: typeof record.user?.type === "string" ? record.user.type : null,
    login: typeof record.user?.login === "string" ? record.user.login : null,
  };
}

/** Every comment on the issue that starts with the marker and was written by the card's author. */
export async function listMarkedComments(
  client: GitHubClient,
  options: RepoRef & { issueNumber: number; marker?: string; authorLogin?: string },
): Promise<IssueComment[]> {
  const marker = options.marker ?? CARD_MARKER;
  // A person quoting the marker must not get their comment overwritten: only the card's author counts.
  const isAuthor = (comment: IssueComment): boolean =>
    options.authorLogin === undefined ? comment.userType === "Bot" : comment.login === options.authorLogin;
  const found: IssueComment[] = [];
  for (let page = 1; ; page++) {
    const response = await client.request("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", {
      owner: options.owner,
      repo: options.repo,
      issue_number: options.issueNumber,
      per_page: 100,
      page,
    });
    const items = Array.isArray(response.data) ? response.data : [];
    for (const item of items) {
      const comment = toComment(item);
      if (comment && isAuthor(comment) && comment.body.startsWith(marker)) found.push(comment);
    }
    if (items.length < 100) return found;
  }
}

function fitComment(body: string): string {
  if (body.length <= MAX_COMMENT_CHARS) return body;
  const note = "\n\n…cut to fit GitHub's comment size limit.\n";
  return `${body.slice(0, MAX_COMMENT_CHARS - note.length)}${note}`;
}

/** Deletes every marked comment but the oldest, which it returns; a comment already gone counts as removed. */
async function foldIntoOldest(
  client: GitHubClient,
  options: RepoRef,
  marked: IssueComment[],
): Promise<{ keep: IssueComment | undefined; removed: number }> {
  const sorted = [...marked].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
  const [keep, ...extra] = sorted;
  let removed = 0;
  for (const comment of extra) {
    try {
      await client.request("DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}", {
        owner: options.owner,
        repo: options.repo,
        comment_id: comment.id,
      });
    } catch (error) {
      // Another process folding the same duplicates deleted it first.
      if (statusOf(error) !== 404) throw error;
    }
    removed++;
  }
  return { keep, removed };
}

/**
 * One card comment per pull request: edits the marked comment in place, creates it when there is
 * none, and folds duplicates into the oldest. Duplicates come from a race between processes, or
 * from a create whose response was lost and that the client's retry repeated: so a create is
 * followed by a second listing and a fold.
 */
export async function upsertCardComment(client: GitHubClient, options: UpsertCardCommentOptions): Promise<UpsertResult> {
  const { owner, repo, issueNumber } = options;
  const body = fitComment(options.body);
  const { keep, removed } = await foldIntoOldest(client, options, await listMarkedComments(client, options));
  if (!keep) {
    const created = await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
      owner,
      repo,
      issue_number: issueNumber,
      body,
    });
    const createdId = toComment(created.data)?.id ?? 0;
    const after = await foldIntoOldest(client, options, await listMarkedComments(client, options));
    const survivor = after.keep;
    if (survivor && survivor.id !== createdId && survivor.body !== body) {
      // Another process's card came first; it is replaced by this one only if this one is not older.
      if (options.shouldReplace && !options.shouldReplace(survivor.body))
        return { commentId: survivor.id, action: "kept", removed: removed + after.removed };
      await client.request("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", { owner, repo, comment_id: survivor.id, body });
    }
    return { commentId: survivor?.id ?? createdId, action: "created", removed: removed + after.removed };
  }
  if (options.shouldReplace && !options.shouldReplace(keep.body)) return { commentId: keep.id, action: "kept", removed };
  if (keep.body !== body) {
    await client.request("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", { owner, repo, comment_id: keep.id, body });
  }
  return { commentId: keep.id, action: "updated", removed };
}
