import { describe, expect, it } from "vitest";
import { decideStepOutcome } from "../../action/decide-step-outcome.js";
import { cardOutputs } from "../../action/card-outputs.js";
import { type PromptPlan, makeCard, seedOomFailure } from "../../harness/make-card.js";
import { IDLE_GPU, LEFTOVER_GPU } from "../support/make-gpu-snapshot.js";
import { imageBaseMismatch } from "../../src/failure/image-base-mismatch.js";
import { makeScenarioRound } from "../support/make-scenario-round.js";
import { CRASH_WITH_LINKS, EXCERPT_WITH_LINKS, withEngineText } from "../../harness/crash-with-links.js";

const twelve: PromptPlan[] = Array.from({ length: 12 }, () => ({ speedup: 1.3 }));
const busyRunner = makeCard(twelve, { failure: seedOomFailure(), gpuSnapshots: { baseline: IDLE_GPU, candidate: LEFTOVER_GPU } });
const patchNeedsMemory = makeCard(twelve, { failure: seedOomFailure(), gpuSnapshots: { baseline: IDLE_GPU, candidate: IDLE_GPU } });
const output = (card: typeof busyRunner) => cardOutputs({ card, jsonPath: "scorecard.json", markdownPath: "scorecard.md", markdown: "" });

describe("the action's outcome, from the same verdict as the card and the check", () => {
  it("passes a card that passed, with no annotation", () => {
    expect(decideStepOutcome(makeCard(twelve), { failOnGate: true, cancelled: false })).toEqual({
      failure: null,
      warning: null,
      annotation: null,
    });
    expect(output(makeCard(twelve))).toMatchObject({ verdict: "pass", "gate-passed": "true" });
  });

  it("fails the step with the patch's failure as an error when the patch is at fault", () => {
    const outcome = decideStepOutcome(patchNeedsMemory, { failOnGate: true, cancelled: false });
    expect(outcome.failure).toBe(
      "❌ No prompt scores: candidate engine died before becoming healthy (CUDA out of memory during CUDA graph capture)",
    );
    expect(outcome.annotation).toMatchObject({
      level: "error",
      title: "speedgate: candidate engine died before becoming healthy (CUDA out of memory during CUDA graph capture)",
    });
    expect(output(patchNeedsMemory)).toMatchObject({ verdict: "fail", "gate-passed": "false", "failure-kind": "cuda_oom" });
  });

  it(
    "says no verdict when the runner's GPU was busy: still a failed step (nothing was measured), a warning on the engine, and what to " +
      "free",
    () => {
      const outcome = decideStepOutcome(busyRunner, { failOnGate: true, cancelled: false });
      expect(outcome.failure).toBe(
        "⚠️ No verdict: the runner's GPU was busy, not the patch (GPU 0 was held by python3, pid 4242, 22.5 GiB, when the candidate " +
          "started) " +
          "Free GPU 0 on gpu-runner-3: stop what holds it (python3, pid 4242, 22.5 GiB), then comment `/rescore`.",
      );
      expect(outcome.annotation).toMatchObject({
        level: "warning",
        title:
          "speedgate: no verdict, not the patch: candidate engine died before becoming healthy (CUDA out of memory during CUDA graph " +
          "capture)",
      });
      expect(outcome.annotation?.message).toContain("Free GPU 0 on gpu-runner-3");
      expect(output(busyRunner)).toMatchObject({ verdict: "none", "gate-passed": "false" });
    },
  );

  it("only warns with fail-on-gate: false, and fails a cancelled round whatever it scored", () => {
    const lenient = decideStepOutcome(busyRunner, { failOnGate: false, cancelled: false });
    expect(lenient.failure).toBeNull();
    expect(lenient.warning).toMatch(/^⚠️ No verdict: .*\(fail-on-gate is false, so the step passes\)$/);
    expect(decideStepOutcome(makeCard(twelve), { failOnGate: true, cancelled: true }).failure).toMatch(
      /^speedgate was cancelled: ✅ Round score/,
    );
  });

  it(
    "fails the step when the engine image cannot be brought to the base, whatever fail-on-gate says: a setup to fix, not a verdict on " +
      "the patch",
    () => {
      const failure = imageBaseMismatch({
        image: "lmsysorg/sglang:dev",
        imageRevision: "c0e50f9ebc60aa11",
        base: "9e3d2763dbd5bb22",
        reason: "the image's commit c0e50f9ebc60 is not an ancestor of the base 9e3d2763dbd5",
      });
      const card = makeCard([], { failure });
      for (const failOnGate of [true, false]) {
        const outcome = decideStepOutcome(card, { failOnGate, cancelled: false });
        expect(outcome.failure).toBe(
          "⚠️ No verdict: the engine image does not fit the base commit, neither engine nor the patch failed (lmsysorg/sglang:dev " +
            "(source at c0e50f9ebc60) cannot be brought to the base 9e3d2763dbd5)",
        );
        expect(outcome.warning).toBeNull();
        expect(outcome.annotation).toMatchObject({ level: "warning" });
        expect(outcome.annotation?.message).toContain(
          "lmsysorg/sglang:dev (source at c0e50f9ebc60) cannot be brought to the base 9e3d2763dbd5",
        );
      }
      expect(output(card)).toMatchObject({ verdict: "none", "gate-passed": "false", "failure-kind": "image_base_mismatch" });
    },
  );
});

describe("the action's outputs of a round with scenarios", () => {
  it("keeps round-score the headline's and lists every scenario's name, score and pass as JSON", () => {
    const card = makeScenarioRound(
      [
        { name: "decode-c1", speedup: 1.2 },
        { name: "chat-rate16", speedup: 0.95, minRoundScore: 0.9 },
      ],
      0.97,
    );
    const outputs = output(card);
    const headline = card.scenarios?.[0]?.card.roundScore;
    expect(outputs["round-score"]).toBe(String(headline));
    expect(outputs["gate-passed"]).toBe("false");
    // chat-rate16 passes its own bar (0.9) but lies below gate.maxRegression.
    expect(JSON.parse(outputs.scenarios ?? "")).toEqual([
      { name: "decode-c1", score: headline, passed: true },
      { name: "chat-rate16", score: card.scenarios?.[1]?.card.roundScore, passed: false },
    ]);
  });

  it("gives an empty list for a round without scenarios", () => {
    expect(output(makeCard(twelve)).scenarios).toBe("[]");
  });

  it("quotes the engine's crash line in the annotation with no URL or e-mail address left whole for the job log to link", () => {
    const card = withEngineText(patchNeedsMemory, CRASH_WITH_LINKS, EXCERPT_WITH_LINKS);
    const message = decideStepOutcome(card, { failOnGate: true, cancelled: false }).annotation?.message ?? "";
    expect(message).not.toMatch(/\b[a-z][a-z0-9+.-]*:\/\/\S|\bwww\.\S|[\w.+-]+@[\p{L}\p{N}-]+\.\S/iu);
    expect(message.replaceAll("\u200b", "")).toBe(CRASH_WITH_LINKS);
  });
});
