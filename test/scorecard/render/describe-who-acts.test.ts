import { describe, expect, it } from "vitest";
import { describeWhoActs } from "../../../src/scorecard/render/describe-who-acts.js";
import type { EngineFailure } from "../../../src/vocabulary/engine-failure.js";
import { makeCard, seedOomFailure } from "../../../harness/make-card.js";

const twelve = Array.from({ length: 12 }, () => ({ speedup: 1.2 }));
const crash: EngineFailure = {
  engine: "candidate",
  stage: "benchmark",
  kind: "assertion_failed",
  label: "Python AssertionError",
  summary: "AssertionError: req 5c has nothing to extend",
  hint: "Read the assertion.",
  exitCode: 1,
  signal: null,
  logTail: ["AssertionError: req 5c has nothing to extend"],
  frames: ["scheduler.py:1733 in get_new_batch_prefill"],
  prompt: { number: 9, id: "p9" },
};
const lead = (failure: EngineFailure | null) => describeWhoActs(makeCard(twelve, { failure }))?.lead ?? null;

describe("describeWhoActs: who acts on a failed round, before any table", () => {
  it("tells the author when the engine with the patch failed where the baseline did not", () => {
    expect(describeWhoActs(makeCard(twelve, { failure: crash }))).toEqual({
      lead: "For the author of the pull request:",
      text:
        "the baseline, the same engine without the patch, ran the same command on this runner without failing, so the patch is " +
        "where to look: the error and frames below say where. Fix it, push, and comment `/rescore`.",
    });
    expect(describeWhoActs(makeCard(twelve, { failure: { ...crash, stage: "patch", kind: "patch_conflict" } }))?.text).toMatch(
      /^the changes do not apply to the engine the baseline was made from: rebase them/,
    );
    expect(describeWhoActs(makeCard(twelve, { failure: { ...crash, stage: "build", kind: "build_error", frames: [] } }))?.text).toBe(
      "the engine with the patch does not build where the baseline did; the error below says where. Fix it, push, and comment `/rescore`.",
    );
  });

  it("tells the runner's maintainers when the baseline, what ran the engines or the runner failed, never the author", () => {
    expect(lead({ ...crash, engine: "baseline" })).toBe("Not the patch. For the runner's maintainers:");
    expect(lead({ ...crash, kind: "infrastructure", label: "the Docker daemon went away (infrastructure, not the patch)" })).toBe(
      "Not the patch. For the runner's maintainers:",
    );
    expect(lead({ ...crash, stage: "startup", kind: "gpu_unavailable", label: "no GPU" })).toBe(
      "Not the patch. For the runner's maintainers:",
    );
    expect(lead({ ...crash, kind: "cancelled", label: "cancelled" })).toBe("Nobody's fault:");
  });

  it("keeps a CUDA out-of-memory's own reading of the GPU state, and says nothing without a failure", () => {
    expect(lead(seedOomFailure())).toBe("For the author of the pull request:");
    expect(lead(null)).toBeNull();
  });
});
