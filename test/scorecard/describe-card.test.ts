import { describe, expect, it } from "vitest";
import { describeFailureEvent } from "../../src/scorecard/describe-card.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";

type Failure = NonNullable<Scorecard["failure"]>;

const daemonGone: Failure = {
  engine: "baseline",
  stage: "benchmark",
  kind: "infrastructure",
  label: "the Docker daemon went away (infrastructure, not the patch)",
  summary: "lost the connection to the Docker daemon while the baseline engine ran: aborted (ECONNRESET)",
  hint: "check systemctl status docker",
  exitCode: null,
  signal: null,
  logTail: [],
};

describe("describeFailureEvent", () => {
  it("says what went away and when, instead of an engine that died", () => {
    expect(describeFailureEvent(daemonGone)).toBe("the Docker daemon went away during the baseline engine's benchmark");
    expect(describeFailureEvent({ ...daemonGone, engine: "candidate", stage: "startup" })).toBe("the Docker daemon went away while the candidate engine was starting");
    expect(describeFailureEvent({ ...daemonGone, stage: "build" })).toBe("the Docker daemon went away while the baseline engine was being prepared");
  });

  it("still blames the engine for its own death", () => {
    expect(describeFailureEvent({ ...daemonGone, kind: "exited", label: "exited with code 1" })).toBe("baseline engine died during the benchmark");
  });
});
