import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPatch } from "../../src/config/load-patch.js";
import { parseScorecardJson } from "../../src/scorecard/read-scorecard.js";
import { CARD_MARKER } from "../../src/scorecard/render/render-markdown.js";
import { selectShard } from "../../src/shard/select-shard.js";
import { candidateOom, cardFor, recordRound } from "../shard/synthetic-round.js";
import { markedProcesses } from "../support/find-marked-processes.js";
import { DIST, runStep, startStep } from "./support/action-step.js";
import { FASTER_PATCH, SLOWER_PATCH, type ActionRound, writeActionRound } from "./support/write-action-round.js";
import { pullRequestEvent } from "./support/webhook-payloads.js";
import { BUSY_H100, IDLE_H100, LEFTOVER_ENGINE, installFakeNvidiaSmi } from "../support/fake-nvidia-smi.js";
import { concatPatterns } from "../support/concat-patterns.js";

const OOM_LOG = new URL("../../harness/fixtures/sglang-cuda-graph-oom.log", import.meta.url).pathname;

/*
 * The bundled action (dist/index.js, dist/post.js) run as the runner runs it, on the reference
 * engine with the process runtime.
 */

const event = { name: "pull_request", payload: pullRequestEvent("opened") };
/** Under a pull_request event, runtime: process runs only what the config vouches for (issue #24 point 2). */
const TRUSTED = { trusted: true };

describe("the bundled action", () => {
  let round: ActionRound;
  let workDir: string;

  beforeAll(async () => {
    if (!existsSync(join(DIST, "index.js"))) throw new Error("dist/index.js is missing: run npm run build");
    round = await writeActionRound({ candidate: TRUSTED });
    workDir = await mkdtemp(join(tmpdir(), "speedgate-step-"));
  });
  afterAll(async () => {
    await rm(round.dir, { recursive: true, force: true });
    await rm(workDir, { recursive: true, force: true });
  });

  it("scores a pull request: outputs, job summary, a card that names the pull request, and state for the post step", async () => {
    const step = await runStep({
      entry: "index",
      workDir,
      event,
      inputs: { config: round.configPath, patch: round.patchPath, "github-token": "ghs_step_token" },
      env: { ACTIONS_RUNTIME_TOKEN: "runtime-token", ACTIONS_ID_TOKEN_REQUEST_TOKEN: "oidc-token", GITHUB_TOKEN: "env-token" },
    });
    expect(step.exitCode, step.stdout + step.stderr).toBe(0);
    // The engines run the pull request's code. Each read its own environment, its parent's
    // (/proc/$PPID/environ) and every other one /proc showed it: the step's, with the token and
    // the runner's variables in it, was not among them.
    const engineEnv = await readFile(round.envFile, "utf8");
    expect(engineEnv).toContain(`PATH=${process.env.PATH ?? ""}`);
    expect(engineEnv).toContain(round.mark);
    for (const secret of ["ghs_step_token", "runtime-token", "oidc-token", "env-token", "INPUT_", "GITHUB_", "RUNNER_TEMP", "ACTIONS_"]) {
      expect(engineEnv).not.toContain(secret);
    }
    expect(step.stdout).toMatch(/runtime process: each engine runs in a PID namespace of its own/);
    expect(Number(step.outputs["round-score"])).toBeGreaterThan(1);
    expect(step.outputs).toMatchObject({ "gate-passed": "true", "prompts-scored": "12", "prompts-total": "12", "failure-kind": "" });
    const card = parseScorecardJson(await readFile(step.outputs["scorecard-json"] ?? "", "utf8"), "scorecard.json");
    expect(card.source).toEqual({
      repository: "Codertocat/Hello-World",
      pullRequest: event.payload.number,
      headSha: event.payload.pull_request.head.sha,
      runId: "4242",
      runUrl: "https://github.com/Codertocat/Hello-World/actions/runs/4242",
    });
    expect(card.provenance.patchHash).toBe(hashPatch(Buffer.from(FASTER_PATCH)));
    expect(step.outputs["scorecard-json"]).toBe(join(workDir, "runner-temp", "speedgate", "scorecard.json"));
    expect(await readFile(step.outputs["scorecard-md"] ?? "", "utf8")).toContain(CARD_MARKER);
    expect(step.summary).toContain(CARD_MARKER);
    expect(step.summary).toMatch(/✅ Round score \d+\.\d+×/);
    expect(step.state.runtime).toBe("process");
    expect(step.state["run-id"]).toMatch(/^4242-1-[0-9a-f]{8}$/);
    expect(step.stdout).toContain("baseline: engine healthy after");
    expect(step.stdout).not.toContain("::error");

    const post = await runStep({ entry: "post", workDir, event, state: step.state });
    expect(post.exitCode).toBe(0);
    expect(post.stdout).toContain(`Run ${step.state["run-id"]} used the process runtime; nothing to sweep`);
  });

  it("fails the step when the gate does not pass, and only warns with fail-on-gate: false", async () => {
    const slower = join(round.dir, "slower.patch");
    await writeFile(slower, SLOWER_PATCH);
    const failing = await runStep({
      entry: "index",
      workDir,
      event,
      inputs: { config: round.configPath, patch: slower, "out-dir": join(workDir, "slower") },
    });
    expect(failing.exitCode).toBe(1);
    expect(failing.outputs["gate-passed"]).toBe("false");
    expect(Number(failing.outputs["round-score"])).toBeLessThan(1);
    expect(failing.stdout).toMatch(/^::error::❌ Round score 0\.\d+× is below the gate's 1\.00×$/m);
    expect(failing.summary).toContain("| Gate | ❌ does not pass");

    const lenient = await runStep({
      entry: "index",
      workDir,
      event,
      inputs: { config: round.configPath, patch: slower, "out-dir": join(workDir, "slower"), "fail-on-gate": "false" },
    });
    expect(lenient.exitCode).toBe(0);
    expect(lenient.stdout).toMatch(/^::warning::❌ Round score .*fail-on-gate is false/m);
  });

  it("annotates an engine failure with its summary line and sets failure-kind", async () => {
    const broken = join(round.dir, "broken.patch");
    await writeFile(broken, FASTER_PATCH.replace('"ttftMs": 20', '"ttftMs": "twenty"'));
    const step = await runStep({
      entry: "index",
      workDir,
      event,
      inputs: { config: round.configPath, patch: broken, "out-dir": join(workDir, "broken") },
    });
    expect(step.exitCode).toBe(1);
    expect(step.outputs["failure-kind"]).not.toBe("");
    expect(step.outputs["gate-passed"]).toBe("false");
    expect(step.stdout).toMatch(/^::error title=speedgate%3A candidate engine died before becoming healthy.*::.+$/m);
    expect(step.summary).toContain("candidate engine died before becoming healthy");
  });

  it("says no verdict when the runner's GPU was busy: the step fails, but the annotation is a warning that says what to free", async () => {
    // nvidia-smi shows an idle GPU before the baseline starts and a leftover engine before the candidate does, which then runs out of
    // memory.
    const fake = await installFakeNvidiaSmi([{ gpus: IDLE_H100 }, { gpus: BUSY_H100, apps: LEFTOVER_ENGINE }]);
    try {
      const busy = await writeActionRound({
        candidate: {
          ...TRUSTED,
          command: [
            "{node}",
            "{speedgate}",
            "sim-engine",
            "--port",
            "{port}",
            "--profile",
            "profile.json",
            "--crash-log",
            OOM_LOG,
            "--crash-exit-code",
            "1",
          ],
        },
      });
      try {
        const step = await runStep({
          entry: "index",
          workDir,
          event,
          inputs: { config: busy.configPath, patch: busy.patchPath, "out-dir": join(workDir, "busy") },
          env: { PATH: fake.path },
        });
        expect(step.exitCode).toBe(1);
        expect(step.outputs).toMatchObject({ verdict: "none", "gate-passed": "false", "failure-kind": "cuda_oom" });
        const headline =
          "⚠️ No verdict: the runner's GPU was busy, not the patch (GPU 0 was held by python3 -m sglang.launch_server, tp0, pid " +
          "4242, 22.5 GiB, when the candidate started)";
        expect(step.stdout).toMatch(
          concatPatterns(
            /^::warning title=speedgate%3A no verdict%2C not the patch%3A candidate engine died before becoming healthy.*::.*Free GPU /m,
            /0 on test-runner: stop what holds it /m,
          ),
        );
        expect(step.stdout).not.toMatch(/^::error title=/m);
        expect(step.stdout).toContain(`::error::${headline} Free GPU 0 on `);
        // The card shows a dotted name of the engine's as code, as every word a renderer could take for a domain.
        expect(step.summary).toContain(`## ${headline.replace("sglang.launch_server", "`sglang.launch_server`")}`);
        expect(step.summary).not.toContain("does not pass");
      } finally {
        await rm(busy.dir, { recursive: true, force: true });
      }
    } finally {
      await fake.remove();
    }
  });

  describe("fails the step on bad inputs, naming the input", () => {
    it.each([
      [{ mode: "bench" }, 'input "mode": expected "run", "merge" or "watch", got "bench"'],
      [{ shard: "5/4" }, 'input "shard": expected "i/n" with whole numbers 1 <= i <= n <= 1000, such as "2/4", got "5/4"'],
      [{ config: "" }, 'input "config": expected the path of a round config file (mode: run), got nothing'],
      [{ config: "missing/round.yaml" }, 'input "config": expected a readable round config file, could not read'],
      [{ patch: "missing.patch" }, 'input "patch": expected a readable patch file, could not read'],
    ])("%j", async (inputs, message) => {
      const step = await runStep({ entry: "index", workDir, event, inputs: { config: round.configPath, ...inputs } });
      expect(step.exitCode).toBe(1);
      const errors = step.stdout.split("\n").filter((line) => line.startsWith("::error::"));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain(message);
      expect(step.state).toEqual({});
    });
  });
});

describe("the bundled action, sharded", () => {
  let round: ActionRound;
  let workDir: string;

  beforeAll(async () => {
    round = await writeActionRound({ prompts: 11, candidate: TRUSTED });
    workDir = await mkdtemp(join(tmpdir(), "speedgate-shards-"));
  });
  afterAll(async () => {
    await rm(round.dir, { recursive: true, force: true });
    await rm(workDir, { recursive: true, force: true });
  });

  it("scores each shard's share, then merges the shard cards into the round's card", async () => {
    const unsharded = await runStep({
      entry: "index",
      workDir,
      event,
      inputs: { config: round.configPath, patch: round.patchPath, "out-dir": join(workDir, "unsharded") },
    });
    expect(unsharded.exitCode, unsharded.stdout).toBe(0);
    const whole = parseScorecardJson(await readFile(unsharded.outputs["scorecard-json"] ?? "", "utf8"), "unsharded card");
    const shardIds: string[][] = [];
    for (const index of [1, 2]) {
      const step = await runStep({
        entry: "index",
        workDir,
        event,
        // As the sharded workflow runs them: a shard's own verdict (here too few prompts for one) is not the round's; the merge gates.
        inputs: {
          config: round.configPath,
          patch: round.patchPath,
          shard: `${index}/2`,
          "out-dir": join(workDir, "shards", `speedgate-shard-${index}`),
          "fail-on-gate": "false",
        },
      });
      expect(step.exitCode, step.stdout).toBe(0);
      expect(step.stdout).toContain(`shard ${index} of 2: ${index === 1 ? 6 : 5} of 11 prompts`);
      const card = parseScorecardJson(await readFile(step.outputs["scorecard-json"] ?? "", "utf8"), "shard card");
      expect(card.shard).toEqual({ index, count: 2 });
      shardIds.push(card.prompts.map((prompt) => prompt.id));
    }
    expect(shardIds.flat().sort()).toEqual(Array.from({ length: 11 }, (_, index) => `p${index}`).sort());

    const merge = await runStep({
      entry: "index",
      workDir,
      event,
      inputs: { mode: "merge", cards: join(workDir, "shards"), "out-dir": join(workDir, "merged") },
    });
    expect(merge.exitCode, merge.stdout).toBe(0);
    expect(merge.outputs).toMatchObject({ "prompts-total": "11", "gate-passed": "true" });
    const merged = parseScorecardJson(await readFile(merge.outputs["scorecard-json"] ?? "", "utf8"), "merged card");
    expect(merged.shard).toBeNull();
    expect(merged.source?.pullRequest).toBe(event.payload.number);
    // The same round as far as provenance can tell; the timings are new measurements, so scores are not compared here.
    expect(merged.provenance).toMatchObject({
      configHash: whole.provenance.configHash,
      promptsHash: whole.provenance.promptsHash,
      patchHash: whole.provenance.patchHash,
    });
    expect(merged.prompts.map((prompt) => prompt.id).sort()).toEqual(whole.prompts.map((prompt) => prompt.id).sort());
    expect(merge.summary).toContain(CARD_MARKER);

    const partial = await runStep({
      entry: "index",
      workDir,
      event,
      inputs: { mode: "merge", cards: join(workDir, "shards", "speedgate-shard-1"), "out-dir": join(workDir, "partial") },
    });
    expect(partial.exitCode).toBe(1);
    expect(partial.stdout).toContain('::error::input "cards": cannot merge these shard cards: shard 2 of 2 is missing');
  });
});

describe("the bundled action, against a candidate that tampers with the card", () => {
  let round: ActionRound;
  let workDir: string;
  const outDir = () => join(workDir, "out");

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), "speedgate-tamper-"));
    // The candidate leaves a child in a session of its own (setsid, so out of the engine's process
    // group) that waits for the card and then rewrites it: a score the patch did not earn.
    const forge =
      `while [ ! -s '${join(workDir, "out", "scorecard.json")}' ]; do sleep 0.02; done; echo '{"forged": true}' > ` +
      `'${join(workDir, "out", "scorecard.json")}'`;
    round = await writeActionRound({
      candidate: {
        ...TRUSTED,
        command: [
          "sh",
          "-c",
          `setsid sh -c "${forge}" & exec "$0" "$@"`,
          "{node}",
          "{speedgate}",
          "sim-engine",
          "--port",
          "{port}",
          "--profile",
          "profile.json",
        ],
      },
    });
  });
  afterAll(async () => {
    await rm(round.dir, { recursive: true, force: true });
    await rm(workDir, { recursive: true, force: true });
  });

  it("its setsid child is dead before the card is written, and the card stays the one the action wrote", async () => {
    const step = await runStep({
      entry: "index",
      workDir,
      event,
      inputs: { config: round.configPath, patch: round.patchPath, "out-dir": outDir() },
    });
    expect(step.exitCode, step.stdout + step.stderr).toBe(0);
    // Nothing either engine started is alive now, so nothing can change the card after this point.
    expect(markedProcesses(round.mark)).toEqual([]);
    const card = parseScorecardJson(await readFile(join(outDir(), "scorecard.json"), "utf8"), "scorecard.json");
    expect(String(card.roundScore)).toBe(step.outputs["round-score"]);
    expect(card.provenance.patchHash).toBe(hashPatch(Buffer.from(FASTER_PATCH)));
  });
});

describe("the bundled action, cancelled", () => {
  let round: ActionRound;
  let workDir: string;

  beforeAll(async () => {
    // Long enough that the SIGINT lands in the middle of the baseline's benchmark.
    round = await writeActionRound({ prompts: 400, requestIntervalMs: 25, candidate: TRUSTED });
    workDir = await mkdtemp(join(tmpdir(), "speedgate-cancel-"));
  });
  afterAll(async () => {
    await rm(round.dir, { recursive: true, force: true });
    await rm(workDir, { recursive: true, force: true });
  });

  it("stops the engine on SIGINT and fails the step; the post step then finds nothing to do", async () => {
    const step = await startStep({ entry: "index", workDir, event, inputs: { config: round.configPath, patch: round.patchPath } });
    await step.waitForLine(/^baseline: \d+\/400 prompts done/);
    expect((await readFile(round.pidFile, "utf8")).trim().split("\n")).toHaveLength(1);
    expect(markedProcesses(round.mark).length).toBeGreaterThan(0);

    step.child.kill("SIGINT");
    const result = await step.finished;
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain("Received SIGINT; stopping the engines");
    expect(result.stdout).toMatch(/^::error::round cancelled \(the job was cancelled \(SIGINT\)\)/m);
    expect(markedProcesses(round.mark)).toEqual([]);
    // The candidate never started.
    expect((await readFile(round.pidFile, "utf8")).trim().split("\n")).toHaveLength(1);

    const post = await runStep({ entry: "post", workDir, event, state: result.state });
    expect(post.exitCode).toBe(0);
    expect(post.stdout).not.toContain("::warning::");
  });
});

describe("the bundled action, merging", () => {
  it("fails the merged round when a shard's engine failed, and the annotation names the shard", async () => {
    const workDir = await mkdtemp(join(tmpdir(), "speedgate-merge-step-"));
    const recorded = recordRound(12);
    const prompts = recorded.promptIds.map((id) => ({ id }));
    for (const index of [1, 2, 3]) {
      const shard = { index, count: 3 };
      const ids = selectShard(prompts, shard).map((prompt) => prompt.id);
      const card = cardFor(recorded, ids, { shard, candidateFailure: index === 2 ? candidateOom : null });
      await mkdir(join(workDir, "cards", `speedgate-shard-${index}`), { recursive: true });
      await writeFile(join(workDir, "cards", `speedgate-shard-${index}`, "scorecard.json"), JSON.stringify(card));
    }
    const step = await runStep({ entry: "index", workDir, event, inputs: { mode: "merge", cards: "cards/*/scorecard.json" } });
    expect(step.exitCode).toBe(1);
    expect(step.outputs).toMatchObject({ "failure-kind": "cuda_oom", "gate-passed": "false", "prompts-total": "12" });
    expect(step.stdout).toMatch(
      concatPatterns(
        /^::error title=speedgate%3A candidate engine died before becoming healthy \(CUDA out of memory\)::shard 2 of 3: /m,
        /torch\.OutOfMemoryError/m,
      ),
    );
    expect(step.summary).toContain("shard 2 of 3: `torch.OutOfMemoryError`");
    await rm(workDir, { recursive: true, force: true });
  });
});

describe("the bundled post step", () => {
  it("only warns when it cannot sweep, and has nothing to do when no round started", async () => {
    const workDir = await mkdtemp(join(tmpdir(), "speedgate-post-"));
    const unreachable = await runStep({
      entry: "post",
      workDir,
      event,
      state: { "run-id": "4242-1-deadbeef", runtime: "docker" },
      env: { DOCKER_HOST: `unix://${join(workDir, "no-daemon.sock")}` },
    });
    expect(unreachable.exitCode).toBe(0);
    expect(unreachable.stdout).toMatch(/^::warning::Cleanup after speedgate could not finish: .*no-daemon\.sock/m);
    expect(unreachable.stdout).not.toContain("::error");

    const nothing = await runStep({ entry: "post", workDir, event });
    expect(nothing.exitCode).toBe(0);
    expect(nothing.stdout).toContain("No round was started; nothing to clean up");
    await rm(workDir, { recursive: true, force: true });
  });
});
