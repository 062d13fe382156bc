import { webhookExample } from "./webhook-example.js";

/*
 * Example payloads from @octokit/webhooks-examples with only the fields a test depends on changed.
 * The examples carry no installation, which every delivery to an installed app has.
 */

export const OWNER = "Codertocat";
export const REPO = "Hello-World";
export const INSTALLATION = { id: 1, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==" };

type Payload = Record<string, unknown>;

// The app de-duplicates on what a payload identifies (a comment, a check run): each new payload gets its own id.
let nextPayloadId = 70_000;

function withRepository(payload: Payload): Payload {
  const repository = payload.repository as Payload;
  repository.name = REPO;
  repository.full_name = `${OWNER}/${REPO}`;
  (repository.owner as Payload).login = OWNER;
  repository.default_branch = "main";
  payload.installation = INSTALLATION;
  return payload;
}

export interface RunFields {
  id: number;
  headSha: string;
  headBranch?: string;
  headRepo?: string;
  event?: string;
  conclusion?: string | null;
  startedAt?: string;
  title?: string;
  workflowFile?: string;
}

export function workflowRunCompleted(fields: RunFields): Payload {
  const payload = withRepository(webhookExample("workflow_run", "completed"));
  const run = payload.workflow_run as Payload;
  run.id = fields.id;
  run.head_sha = fields.headSha;
  run.head_branch = fields.headBranch ?? "feature";
  run.event = fields.event ?? "pull_request";
  run.conclusion = fields.conclusion === undefined ? "success" : fields.conclusion;
  run.status = "completed";
  run.path = `.github/workflows/${fields.workflowFile ?? "speedgate.yml"}`;
  run.display_title = fields.title ?? "Speed up the scheduler";
  run.run_started_at = fields.startedAt ?? "2026-01-01T00:00:00Z";
  run.created_at = run.run_started_at;
  run.html_url = `https://github.com/${OWNER}/${REPO}/actions/runs/${fields.id}`;
  run.pull_requests = [];
  const headRepo = run.head_repository as Payload;
  headRepo.full_name = fields.headRepo ?? `${OWNER}/${REPO}`;
  (headRepo.owner as Payload).login = (fields.headRepo ?? OWNER).split("/")[0];
  return payload;
}

export function pullRequestEvent(
  action: "opened" | "synchronize" | "reopened" | "closed",
  fields: {
    number: number;
    headSha: string;
    author: string;
    sender?: string;
    updatedAt?: string;
    headBranch?: string;
    headRepo?: string;
    baseSha?: string;
  },
): Payload {
  const payload = withRepository(webhookExample("pull_request", action));
  payload.number = fields.number;
  const pull = payload.pull_request as Payload;
  pull.number = fields.number;
  (pull.head as Payload).sha = fields.headSha;
  if (fields.baseSha) (pull.base as Payload).sha = fields.baseSha;
  if (fields.headBranch) (pull.head as Payload).ref = fields.headBranch;
  if (fields.headRepo) ((pull.head as Payload).repo as Payload).full_name = fields.headRepo;
  (pull.user as Payload).login = fields.author;
  pull.updated_at = fields.updatedAt ?? new Date().toISOString();
  const sender = payload.sender as Payload;
  sender.login = fields.sender ?? fields.author;
  sender.type = "User";
  return payload;
}

export function issueCommentCreated(fields: {
  number: number;
  body: string;
  login: string;
  type?: "User" | "Bot";
  commentId?: number;
  onPullRequest?: boolean;
  /** When the comment was written, by GitHub's clock; now by default. */
  createdAt?: string;
  /** The comment's author_association (the example's OWNER by default). */
  association?: string;
  /** Who owns the repository (the example's User by default). */
  ownerType?: "User" | "Organization";
}): Payload {
  const payload = withRepository(webhookExample("issue_comment", "created"));
  if (fields.ownerType) ((payload.repository as Payload).owner as Payload).type = fields.ownerType;
  const issue = payload.issue as Payload;
  issue.number = fields.number;
  if (fields.onPullRequest === false) delete issue.pull_request;
  else issue.pull_request = { url: `https://api.github.com/repos/${OWNER}/${REPO}/pulls/${fields.number}` };
  const comment = payload.comment as Payload;
  comment.id = fields.commentId ?? nextPayloadId++;
  comment.body = fields.body;
  comment.created_at = fields.createdAt ?? new Date().toISOString();
  comment.updated_at = comment.created_at;
  if (fields.association) comment.author_association = fields.association;
  const user = comment.user as Payload;
  user.login = fields.login;
  user.type = fields.type ?? "User";
  const sender = payload.sender as Payload;
  sender.login = fields.login;
  sender.type = fields.type ?? "User";
  return payload;
}

export function checkRunRerequested(fields: { headSha: string; login: string; pullNumber?: number; checkRunId?: number }): Payload {
  const payload = withRepository(webhookExample("check_run", "rerequested"));
  const check = payload.check_run as Payload;
  check.name = "speedgate";
  check.id = fields.checkRunId ?? nextPayloadId++;
  check.head_sha = fields.headSha;
  // GitHub lists the pull requests whose head was this commit (not forks'); none unless the test names one.
  check.pull_requests =
    fields.pullNumber === undefined
      ? []
      : [
          {
            url: "",
            id: fields.pullNumber * 10,
            number: fields.pullNumber,
            head: { ref: "topic", sha: fields.headSha, repo: { id: 1, url: "", name: REPO } },
            base: { ref: "main", sha: "0".repeat(40), repo: { id: 1, url: "", name: REPO } },
          },
        ];
  const sender = payload.sender as Payload;
  sender.login = fields.login;
  sender.type = "User";
  return payload;
}

const ZERO = "0".repeat(40);

/**
 * push: the ref moved from `before` to `after` (all zeros: the ref created or deleted). The example's other
 * fields stay as GitHub sends them; its `commits` list is kept (one commit), which the app must not rely on.
 */
export function pushEvent(fields: { ref?: string; before: string; after: string; forced?: boolean }): Payload {
  const payload = withRepository(webhookExample("push", null, (example) => String(example.ref).startsWith("refs/heads/")));
  payload.ref = fields.ref ?? "refs/heads/main";
  payload.before = fields.before;
  payload.after = fields.after;
  payload.created = fields.before === ZERO;
  payload.deleted = fields.after === ZERO;
  payload.forced = fields.forced ?? false;
  payload.base_ref = null;
  payload.compare = `https://github.com/${OWNER}/${REPO}/compare/${fields.before.slice(0, 12)}...${fields.after.slice(0, 12)}`;
  const head = payload.head_commit as Payload | null;
  if (head && !payload.deleted) head.id = fields.after;
  if (payload.deleted) payload.head_commit = null;
  return payload;
}
