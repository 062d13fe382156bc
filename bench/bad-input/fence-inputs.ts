import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { ActionContext } from "../../action/action-context.js";
import type { RunSettings } from "../../action/action-settings.js";
import { refuseUnreachableHead } from "../../action/refuse-unreachable-head.js";
import { refuseUnreachablePatch } from "../../action/refuse-unreachable-patch.js";
import { pullRequestPatchOrigin } from "../../action/refuse-untrusted-process-round.js";
import { createRecordingLogger } from "../../src/logger.js";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { writeFenceConfig } from "../../harness/write-fence-config.js";
import { createGitRepository } from "../../harness/git/create-git-repository.js";
import { type CorpusRow, describeError, firstLine } from "./corpus-row.js";

/*
 * Issue #24 point 2: events under which a workflow can hand a pull request's patch to the action through
 * `patch:`. Each must be named as a possible pull request's patch, which makes the action refuse
 * `runtime: process` without candidate.trusted (test/action/process-fence-events.test.ts plays them
 * through the bundled action): "clear" when it is, "accepted" when the patch would run on the host.
 */

const CATEGORY = "process fence";

const EVENTS: Array<{ name: string; payload: Record<string, unknown> }> = [
  { name: "workflow_run", payload: { workflow_run: { event: "pull_request" } } },
  { name: "issue_comment", payload: { issue: { number: 3, pull_request: {} } } },
  { name: "pull_request", payload: { pull_request: { number: 3 } } },
  { name: "pull_request_target", payload: { pull_request: { number: 3 } } },
  { name: "pull_request_review", payload: { pull_request: { number: 3 } } },
  { name: "merge_group", payload: {} },
  { name: "check_suite", payload: {} },
  { name: "repository_dispatch", payload: { client_payload: { pr: 3 } } },
  { name: "workflow_dispatch", payload: { inputs: { pr: "3" } } },
  { name: "workflow_dispatch", payload: { inputs: { pull_request: "3" } } },
];

export function runFenceInputs(): CorpusRow[] {
  const settings: RunSettings = {
    mode: "run",
    config: "round.yml",
    patch: { kind: "file", path: "pr.patch" },
    commits: { base: null, head: null, repositoryPath: null },
    shard: null,
    outDir: "out",
    failOnGate: true,
    comment: false,
    githubToken: "",
  };
  return EVENTS.map((event) => {
    const context: ActionContext = {
      eventName: event.name,
      payload: event.payload,
      repository: { owner: "o", repo: "r" },
      runId: "1",
      runAttempt: "1",
      serverUrl: "https://github.com",
      sha: null,
      runnerTemp: "/tmp",
    };
    const input = `runtime: process, patch file, ${event.name} ${JSON.stringify(event.payload)}`;
    const origin = pullRequestPatchOrigin(settings, context);
    return origin === null
      ? { category: CATEGORY, input, outcome: "accepted", message: "the patch would run as a host process without candidate.trusted" }
      : { category: CATEGORY, input, outcome: "clear", message: `refused unless candidate.trusted: ${origin}` };
  });
}

const run = promisify(execFile);

/*
 * Issue #40: the dispatch fence's two doors, tried against a real repository and a clone as
 * actions/checkout makes it, whose pull request #5 is a fork's (refs/pull/5/head, on no branch). In
 * base/head mode the fork's head is fetched under origin/pr/5 by CI's common refspec; in patch mode a
 * workflow_dispatch names the fork's commit without calling it `pr`. "clear" when the action refuses
 * runtime: process without candidate.trusted, "accepted" when the code would run on the host.
 */
export async function runFenceCommitInputs(): Promise<CorpusRow[]> {
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-fence-"));
  try {
    await mkdir(join(dir, "server"));
    const server = await createGitRepository(join(dir, "server"));
    const base = await server.commit("main", { "engine.txt": "v1\n" });
    await server.git("checkout", "--quiet", "-b", "fork-work");
    const fork = await server.commit("a fork's head", { "engine.txt": "owned\n" });
    await server.git("update-ref", "refs/pull/5/head", fork);
    await server.git("checkout", "--quiet", "main");
    await server.git("branch", "--quiet", "-D", "fork-work");
    const clone = join(dir, "clone");
    await run("git", ["clone", "--quiet", `file://${server.dir}`, clone]);
    await run("git", ["-C", clone, "fetch", "--quiet", "origin", "+refs/pull/*/head:refs/remotes/origin/pr/*"]);
    const config = await writeFenceConfig(dir, "process.yml", "process");
    const settings = (patch: RunSettings["patch"]): RunSettings => ({
      mode: "run",
      config,
      patch,
      commits: { base: null, head: null, repositoryPath: clone },
      shard: null,
      outDir: join(dir, "out"),
      failOnGate: true,
      comment: false,
      githubToken: "",
    });
    const dispatch = (inputs: Record<string, string>): ActionContext => ({
      eventName: "workflow_dispatch",
      payload: { inputs },
      repository: { owner: "o", repo: "r" },
      runId: "1",
      runAttempt: "1",
      serverUrl: "https://github.com",
      sha: null,
      runnerTemp: dir,
      workspace: clone,
    });
    const patchInputs: Array<Record<string, string>> = [
      { number: "5" },
      { sha: fork },
      { patch_url: "https://github.com/o/r/pull/5.patch" },
      { ref: "refs/pull/5/head" },
      { patch_url: "https://gist.githubusercontent.com/someone/1/raw/speedup.patch" },
    ];
    const attacks: Array<{ input: string; run: () => Promise<void> }> = [
      {
        input: "base/head: a fork's head fetched under origin/pr/5 (+refs/pull/*/head:refs/remotes/origin/pr/*), dispatched {sha, base}",
        run: () =>
          refuseUnreachableHead(
            settings({ kind: "config" }),
            dispatch({ sha: fork, base }),
            { base, head: fork, repoDir: clone },
            createRecordingLogger(),
          ),
      },
      ...patchInputs.map((inputs) => ({
        input: `patch mode: workflow_dispatch ${JSON.stringify(inputs)} naming a fork's pull request #5`,
        run: () =>
          refuseUnreachablePatch(settings({ kind: "file", path: join(dir, "pr.patch") }), dispatch(inputs), createRecordingLogger()),
      })),
    ];
    const rows: CorpusRow[] = [];
    for (const attack of attacks) {
      const input = `runtime: process, ${attack.input}`;
      try {
        await attack.run();
        rows.push({
          category: CATEGORY,
          input,
          outcome: "accepted",
          message: "the code would run as a host process without candidate.trusted",
        });
      } catch (error) {
        rows.push(
          error instanceof ConfigError
            ? { category: CATEGORY, input, outcome: "clear", message: firstLine(error.message) }
            : { category: CATEGORY, input, outcome: "crash", message: firstLine(describeError(error)) },
        );
      }
    }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
