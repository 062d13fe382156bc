import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPatch } from "../../src/config/load-patch.js";
import { parseScorecardJson } from "../../src/scorecard/read-scorecard.js";
import { CARD_MARKER } from "../../src/scorecard/render/render-markdown.js";
import { serveRepository } from "../../harness/fake-github/serve-repository.js";
import { runStep } from "./support/action-step.js";
import { FASTER_PATCH, type ActionRound, writeActionRound } from "./support/write-action-round.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

/*
 * The bundled action against a local GitHub (checked against GitHub's REST description): the
 * fork-safe path that fetches the diff of exactly the dispatched SHA, and `comment: true`.
 */

const BASE_SHA = "b".repeat(40);
const HEAD_SHA = "c0ffee".padEnd(40, "0");
const DOCS_SECTION = [
  "diff --git a/docs/notes.md b/docs/notes.md",
  "--- a/docs/notes.md",
  "+++ b/docs/notes.md",
  "@@ -1 +1 @@",
  "-slow",
  "+fast",
  "",
].join("\n");
const PULL_REQUEST_DIFF = `${DOCS_SECTION}${FASTER_PATCH}`;
const LEFT_OUT = "docs/notes.md";

describe("the bundled action with GitHub", () => {
  const fake = useFakeGitHub();
  let round: ActionRound;
  /** The same round without candidate.trusted: a pull request's patch must not run as a process. */
  let untrusted: ActionRound;
  let workDir: string;
  const compares: Array<{ basehead: string; accept: string }> = [];

  beforeAll(async () => {
    round = await writeActionRound({ candidate: { trusted: true } });
    untrusted = await writeActionRound();
    workDir = await mkdtemp(join(tmpdir(), "speedgate-github-"));
  });
  afterAll(async () => {
    await rm(round.dir, { recursive: true, force: true });
    await rm(untrusted.dir, { recursive: true, force: true });
    await rm(workDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    compares.length = 0;
    serveRepository(fake, { owner: "Codertocat", repo: "Hello-World", appId: 1, groups: ["comments"] });
    fake.on("GET", "/repos/{owner}/{repo}/pulls/{pull_number}", (request) =>
      request.pathParams.pull_number === "17"
        ? { status: 200, body: { number: 17, base: { sha: BASE_SHA }, head: { sha: "d".repeat(40) } } }
        : { status: 404, body: { message: "Not Found" } },
    );
    fake.on("GET", "/repos/{owner}/{repo}/compare/{basehead}", (request) => {
      compares.push({ basehead: request.pathParams.basehead ?? "", accept: String(request.headers.accept) });
      return { status: 200, body: PULL_REQUEST_DIFF, headers: { "content-type": "application/vnd.github.diff; charset=utf-8" } };
    });
  });

  const dispatch = (pr: string, sha: string) => ({ name: "workflow_dispatch", payload: { inputs: { pr, sha }, ref: "refs/heads/main" } });
  const env = () => ({ GITHUB_API_URL: fake.apiUrl });

  it("scores the diff of exactly the dispatched SHA, limited to patch-paths, and comments the card once", async () => {
    const inputs = {
      config: round.configPath,
      "patch-from-pr": "true",
      "patch-paths": "*.json",
      comment: "true",
      "github-token": "ghs_test",
    };
    const first = await runStep({ entry: "index", workDir, event: dispatch("17", HEAD_SHA), inputs, env: env() });
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);
    expect(fake.violations).toEqual([]);
    // The pull request has moved on (head d…), but the diff is of the SHA the maintainer approved.
    expect(compares).toEqual([{ basehead: `${BASE_SHA}...${HEAD_SHA}`, accept: "application/vnd.github.v3.diff" }]);
    expect(first.stdout).toContain("kept 1 files matching patch-paths, left out 1");
    const card = parseScorecardJson(await readFile(first.outputs["scorecard-json"] ?? "", "utf8"), "scorecard.json");
    expect(card.provenance.patchHash).toBe(hashPatch(Buffer.from(FASTER_PATCH)));
    expect(card.source).toMatchObject({ pullRequest: 17, headSha: HEAD_SHA });
    // What patch-paths left out is on the card, not only in the log: the check passes for the whole commit.
    expect(card.source?.patchFilter).toEqual({ globs: ["*.json"], leftOut: [LEFT_OUT], leftOutTotal: 1 });
    expect(fake.comments[0]?.body).toContain(`### ⚠️ 1 changed file was not scored`);
    expect(fake.comments[0]?.body).toContain(`\n- \`${LEFT_OUT}\`\n`);
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]?.issueNumber).toBe(17);
    expect(fake.comments[0]?.body.startsWith(CARD_MARKER)).toBe(true);
    expect(first.stdout).toContain("Card comment created on #17");

    // Another out-dir, as each shard of a matrix may have: the config, and so its hash, stay the same.
    const second = await runStep({
      entry: "index",
      workDir,
      event: dispatch("17", HEAD_SHA),
      inputs: { ...inputs, "out-dir": join(workDir, "second") },
      env: env(),
    });
    expect(second.exitCode).toBe(0);
    const secondCard = parseScorecardJson(await readFile(second.outputs["scorecard-json"] ?? "", "utf8"), "second scorecard.json");
    expect(secondCard.provenance.configHash).toBe(card.provenance.configHash);
    expect(fake.comments).toHaveLength(1);
    expect(second.stdout).toContain("Card comment updated on #17");
    expect(fake.violations).toEqual([]);
  });

  it.each([
    { how: "patch-from-pr", inputs: { "patch-from-pr": "true" }, origin: 'input "patch-from-pr" is true' },
    // The fork-safe workflow could also check the pull request out and pass a file: the dispatch says whose code it is.
    {
      how: "a dispatched run with a patch file",
      inputs: { patch: "PATCH" },
      origin: 'dispatched for pull request "17" (workflow_dispatch input "pr")',
    },
  ])(
    "refuses runtime: process for a pull request's patch ($how) unless the config says candidate.trusted, before fetching or " +
      "starting anything",
    async ({ inputs, origin }) => {
      const step = await runStep({
        entry: "index",
        workDir,
        event: dispatch("17", HEAD_SHA),
        inputs: {
          config: untrusted.configPath,
          "github-token": "ghs_test",
          ...Object.fromEntries(Object.entries(inputs).map(([name, value]) => [name, value === "PATCH" ? untrusted.patchPath : value])),
        },
        env: env(),
      });
      expect(step.exitCode).toBe(1);
      const errors = step.stdout.split("\n").filter((line) => line.startsWith("::error::"));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain("runtime: process runs the candidate's code as the runner's own user");
      expect(errors[0]).toContain(origin);
      expect(errors[0]).toContain("candidate.trusted: true");
      expect(errors[0]).toContain("runtime: docker");
      expect(fake.requests).toEqual([]);
      expect(existsSync(untrusted.pidFile)).toBe(false);
      expect(step.state).toEqual({});
    },
  );

  it("fails naming the input when the pull request cannot be read", async () => {
    const step = await runStep({
      entry: "index",
      workDir,
      event: dispatch("18", HEAD_SHA),
      inputs: { config: round.configPath, "patch-from-pr": "true", "github-token": "ghs_test" },
      env: env(),
    });
    expect(step.exitCode).toBe(1);
    expect(step.stdout).toMatch(/^::error::input "patch-from-pr": pull request #18 of Codertocat\/Hello-World was not found \(HTTP 404\)/m);
    expect(step.state).toEqual({});
  });

  it("fails naming the input when the event has no pull request", async () => {
    const step = await runStep({
      entry: "index",
      workDir,
      event: { name: "push", payload: {} },
      inputs: { config: round.configPath, "patch-from-pr": "true", "github-token": "ghs_test" },
      env: env(),
    });
    expect(step.exitCode).toBe(1);
    expect(step.stdout).toContain(
      '::error::input "patch-from-pr": expected a pull_request event or workflow_dispatch inputs pr and sha, got a push event without them',
    );
    expect(fake.requests).toEqual([]);
  });

  it("refuses a dispatch sha that is not a full commit SHA", async () => {
    const step = await runStep({
      entry: "index",
      workDir,
      event: dispatch("17", "main"),
      inputs: { config: round.configPath, "patch-from-pr": "true", "github-token": "ghs_test" },
      env: env(),
    });
    expect(step.exitCode).toBe(1);
    expect(step.stdout).toContain('::error::workflow_dispatch input "sha": expected a full 40-character commit SHA, got "main"');
  });
});
