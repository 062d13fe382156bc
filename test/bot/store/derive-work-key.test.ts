import { describe, expect, it } from "vitest";
import {
  checkRunWorkKey,
  commentWorkKey,
  pullRequestLane,
  pullRequestWorkKey,
  workflowRunWorkKey,
} from "../../../bot/store/derive-work-key.js";

describe("work keys", () => {
  it("name what the payload identifies, whatever the delivery id and the repository's case", () => {
    expect(commentWorkKey("Octo/Engine", 77)).toBe(commentWorkKey("octo/engine", 77));
    expect(workflowRunWorkKey("Octo/Engine", 9, 1)).toBe("run:octo/engine:9:1");
    expect(pullRequestLane("Octo/Engine", 12)).toBe("octo/engine#12");
  });

  it("tell a run's re-run attempt, another repository and another kind of work apart", () => {
    const keys = [
      workflowRunWorkKey("octo/engine", 9, 1),
      workflowRunWorkKey("octo/engine", 9, 2),
      workflowRunWorkKey("octo/fork", 9, 1),
      commentWorkKey("octo/engine", 9),
      checkRunWorkKey("octo/engine", 9, "rerequested", "maintainer", "2026-11-29T12:00:00Z"),
      pullRequestWorkKey("octo/engine", 9, "synchronize", "a".repeat(40), "2026-11-29T12:00:00Z"),
      pullRequestWorkKey("octo/engine", 9, "synchronize", "a".repeat(40), "2026-11-29T12:05:00Z"),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("make a re-run click replayed one job, and a click by someone else or after the check concluded again another", () => {
    const first = checkRunWorkKey("octo/engine", 5, "rerequested", "maintainer", "2026-11-29T12:00:00Z");
    expect(checkRunWorkKey("octo/engine", 5, "rerequested", "Maintainer", "2026-11-29T12:00:00Z")).toBe(first);
    expect(checkRunWorkKey("octo/engine", 5, "rerequested", "writer", "2026-11-29T12:00:00Z")).not.toBe(first);
    expect(checkRunWorkKey("octo/engine", 5, "rerequested", "maintainer", "2026-11-29T13:00:00Z")).not.toBe(first);
    expect(checkRunWorkKey("octo/engine", 5, "rescore", "maintainer", "2026-11-29T12:00:00Z")).not.toBe(first);
  });
});
