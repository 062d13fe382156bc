import { describe, expect, it } from "vitest";
import type { EngineFailure } from "../../src/vocabulary/engine-failure.js";
import { checkConclusionFor } from "../../src/github/publish-check-run.js";
import { decideVerdict } from "../../src/scorecard/decide-verdict.js";
import { describeVerdict } from "../../src/scorecard/render/describe-card.js";
import { describeRunnerFix, findRunnerFault } from "../../src/scorecard/find-runner-fault.js";
import { type PromptPlan, makeCard, seedOomFailure } from "../../harness/make-card.js";
import { IDLE_GPU, LEFTOVER_GPU, UNLISTED_BUSY_GPU } from "../support/make-gpu-snapshot.js";

const twelve: PromptPlan[] = Array.from({ length: 12 }, () => ({ speedup: 1.3 }));
const oom = seedOomFailure();

describe("decideVerdict: one decision for the card, the check and the action", () => {
  it("passes and fails on the gate when the patch was measured", () => {
    expect(decideVerdict(makeCard(twelve))).toEqual({ outcome: "pass", cause: null, runnerFault: null });
    expect(
      decideVerdict(makeCard([...twelve.slice(0, 9), { candidateTokens: 10 }, { candidateTokens: 10 }, { candidateTokens: 10 }])),
    ).toMatchObject({ outcome: "fail" });
  });

  it("blames the runner for a CUDA OOM of the candidate when memory was held before it started and not before the baseline", () => {
    const verdict = decideVerdict(makeCard(twelve, { failure: oom, gpuSnapshots: { baseline: IDLE_GPU, candidate: LEFTOVER_GPU } }));
    expect(verdict).toMatchObject({ outcome: "none", cause: "runner" });
    expect(verdict.runnerFault).toEqual({
      memoryInUse: "22.5 of 79.6 GiB were in use on GPU 0",
      beforeBaseline: "0.0 GiB on GPU 0",
      gpu: 0,
      heldGiB: "22.5 GiB",
      holders: "python3, pid 4242, 22.5 GiB",
      mainHolder: "python3, pid 4242, 22.5 GiB",
      runner: "gpu-runner-3",
    });
    expect(describeRunnerFix(verdict.runnerFault ?? expect.fail("a runner fault"))).toBe(
      "Free GPU 0 on gpu-runner-3: stop what holds it (python3, pid 4242, 22.5 GiB), then comment `/rescore`.",
    );
  });

  it(
    "still blames the patch when the baseline started as well with the same memory held, when the GPU was idle, or when nvidia-smi " +
      "could not say",
    () => {
      expect(
        decideVerdict(makeCard(twelve, { failure: oom, gpuSnapshots: { baseline: LEFTOVER_GPU, candidate: LEFTOVER_GPU } })),
      ).toMatchObject({ outcome: "fail", cause: null });
      expect(decideVerdict(makeCard(twelve, { failure: oom, gpuSnapshots: { baseline: IDLE_GPU, candidate: IDLE_GPU } }))).toMatchObject({
        outcome: "fail",
      });
      expect(decideVerdict(makeCard(twelve, { failure: oom }))).toMatchObject({ outcome: "fail" });
    },
  );

  it("blames the runner on memory alone when nvidia-smi listed no process, and says how to find it", () => {
    const verdict = decideVerdict(makeCard(twelve, { failure: oom, gpuSnapshots: { baseline: IDLE_GPU, candidate: UNLISTED_BUSY_GPU } }));
    expect(verdict).toMatchObject({ outcome: "none", cause: "runner", runnerFault: { holders: null, mainHolder: null } });
    expect(describeRunnerFix(verdict.runnerFault ?? expect.fail("a runner fault"))).toContain(
      "find what holds it with `nvidia-smi` on the runner",
    );
  });

  it("is not the runner's fault when the candidate failed otherwise on a busy GPU", () => {
    const crashed: EngineFailure = { ...oom, kind: "import_error", label: "Python ImportError" };
    expect(
      findRunnerFault(makeCard(twelve, { failure: crashed, gpuSnapshots: { baseline: IDLE_GPU, candidate: LEFTOVER_GPU } })),
    ).toBeNull();
  });

  it("gives no verdict when the baseline or the infrastructure failed, or the baseline answered nothing", () => {
    expect(decideVerdict(makeCard(twelve, { failure: { ...oom, engine: "baseline" } }))).toMatchObject({
      outcome: "none",
      cause: "baseline",
    });
    expect(
      decideVerdict(makeCard(twelve, { failure: { ...oom, kind: "infrastructure", label: "the Docker daemon went away" } })),
    ).toMatchObject({ outcome: "none", cause: "infrastructure" });
    expect(decideVerdict(makeCard(twelve.map(() => ({ baselineError: "HTTP 500" }))))).toMatchObject({
      outcome: "none",
      cause: "nothing_compared",
    });
  });
});

describe("the verdict in the headline and in the check run", () => {
  it("says no verdict, not ❌, when the runner's GPU was busy, naming what held it", () => {
    const card = makeCard(twelve, { failure: oom, gpuSnapshots: { baseline: IDLE_GPU, candidate: LEFTOVER_GPU } });
    expect(describeVerdict(card)).toEqual({
      passed: false,
      outcome: "none",
      headline:
        "⚠️ No verdict: the runner's GPU was busy, not the patch (GPU 0 was held by python3, pid 4242, 22.5 GiB, when the candidate " +
        "started)",
    });
    const unlisted = makeCard(twelve, { failure: oom, gpuSnapshots: { baseline: IDLE_GPU, candidate: UNLISTED_BUSY_GPU } });
    expect(describeVerdict(unlisted).headline).toBe(
      "⚠️ No verdict: the runner's GPU was busy, not the patch (22.5 GiB of GPU 0 was in use when the candidate started)",
    );
  });

  it("concludes the check as a failure unless the gate passed: no verdict must not let a required check pass", () => {
    expect(checkConclusionFor("pass")).toBe("success");
    expect(checkConclusionFor("fail")).toBe("failure");
    expect(checkConclusionFor("none")).toBe("failure");
  });
});
