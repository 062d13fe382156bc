import { describe, expect, it } from "vitest";
import type { LoadedRound } from "../../src/config/load-round-config.js";
import { describeUnchangedCandidate } from "../../src/round/describe-unchanged-candidate.js";
import { makeProcessRound } from "./support/make-round.js";

const patch = (text: string): LoadedRound["patch"] => ({ path: "/tmp/p.patch", bytes: Buffer.from(text), sha256: "0".repeat(64) });
const commits = (head: string, mergeBase: string): NonNullable<LoadedRound["commits"]> => ({
  repoDir: "/r",
  base: "b".repeat(40),
  head,
  mergeBase,
  baseRef: "main",
  headRef: "HEAD",
});

describe("describeUnchangedCandidate", () => {
  const plain = makeProcessRound({ port: 1, command: ["engine", "--fast"] });

  it("says so for a round with no patch whose candidate starts as the baseline does", () => {
    expect(describeUnchangedCandidate(plain)).toMatch(
      /^the round has no patch, and the candidate runs the baseline's image, command and environment: both seats ran the same engine/,
    );
  });

  it("says so for an empty patch and for a pull request head that adds nothing to its base", () => {
    expect(describeUnchangedCandidate({ ...plain, patch: patch("  \n") })).toMatch(/^the patch is empty/);
    const base = "b".repeat(40);
    expect(describeUnchangedCandidate({ ...plain, commits: commits(base, base) })).toMatch(
      /^the pull request's head \(bbbbbbbbbbbb\) adds nothing to its base/,
    );
    // A head behind the base (already merged) adds nothing either.
    expect(describeUnchangedCandidate({ ...plain, commits: commits("c".repeat(40), "c".repeat(40)) })).toMatch(/adds nothing to its base/);
  });

  it("says nothing when anything sets the candidate apart", () => {
    expect(describeUnchangedCandidate({ ...plain, patch: patch("--- a/x\n+++ b/x\n") })).toBeNull();
    expect(describeUnchangedCandidate({ ...plain, commits: commits("c".repeat(40), "b".repeat(40)) })).toBeNull();
    expect(
      describeUnchangedCandidate(makeProcessRound({ port: 1, command: ["engine", "--fast"], candidateCommand: ["engine", "--faster"] })),
    ).toBeNull();
    const withEnv = makeProcessRound({ port: 1, command: ["engine"], overrides: { candidate: { env: { FAST: "1" } } } });
    expect(describeUnchangedCandidate(withEnv)).toBeNull();
    const withStep = makeProcessRound({ port: 1, command: ["engine"], overrides: { candidate: { postPatch: [["make"]] } } });
    expect(describeUnchangedCandidate(withStep)).toBeNull();
  });
});
