import { createHash } from "node:crypto";
import { OWNER, REPO } from "../../../harness/fake-github/adjust-payloads.js";
import type { FakeCommit, FakePull } from "../../../harness/fake-github/serve-repository.js";
import { makeCard } from "../../../harness/make-card.js";
import { assembleScenarioCard } from "../../../src/scorecard/assemble-scenario-card.js";
import type { ScenarioCard, Scorecard } from "../../../src/scorecard/scorecard-schema.js";

/*
 * Main's history for the app's bisection tests (as test/bot/bisection-over-http.test.ts builds it): a good commit,
 * then merge commits each merging one pull request's own commit, and the card a watch run on the runner writes for
 * any two of them, at the levels a function of the commit's index gives.
 */

const hex = (n: number, tag: string): string => createHash("sha1").update(`${tag} ${n}`).digest("hex");

/** main: the good commit, then `merges` merge commits, each merging one pull request's own commit. */
export function mainWithMerges(merges: number): { commits: FakeCommit[]; main: string[]; pulls: FakePull[] } {
  const start = Date.parse("2026-11-01T00:00:00Z");
  const date = (minutes: number): string => new Date(start + minutes * 60_000).toISOString();
  const good = hex(0, "a0");
  const commits: FakeCommit[] = [{ sha: good, parents: [], message: "the engine", date: date(0) }];
  const main = [good];
  const pulls: FakePull[] = [];
  for (let number = 1; number <= merges; number++) {
    const branchCommit = hex(number, "b0");
    const merge = hex(number, "c0");
    commits.push({ sha: branchCommit, parents: [main.at(-1) ?? good], message: `change ${number}`, date: date(number * 10 - 5) });
    commits.push({
      sha: merge,
      parents: [main.at(-1) ?? good, branchCommit],
      message: `Merge pull request #${number} from dev/change-${number}\n\nchange ${number}`,
      date: date(number * 10),
    });
    main.push(merge);
    pulls.push({
      number,
      headSha: branchCommit,
      headRepo: `${OWNER}/${REPO}`,
      headBranch: `change-${number}`,
      author: "dev",
      state: "closed",
      mergeCommitSha: merge,
    });
  }
  return { commits, main, pulls };
}

function scenarioCard(level: number, commits: Scorecard["commits"]): ScenarioCard {
  // Twelve prompts spread by ±0.4% around the level: a runner's tight round.
  const { scenarios: _none, ...card } = makeCard(Array.from({ length: 12 }, (_, i) => ({ speedup: level * (1 + ((i % 5) - 2) * 0.002) })));
  return { ...card, commits };
}

/** The card a watch run writes: head against base, decode at `level`'s ratio of the two commits, chat unchanged. */
export function watchStepCard(main: readonly string[], base: string, head: string, level: (index: number) => number): Scorecard {
  const ratio = level(main.indexOf(head)) / level(main.indexOf(base));
  const commits = {
    base,
    head,
    mergeBase: base,
    image: null,
    imageRevision: null,
    imageRevisionFrom: null,
    baseline: null,
    candidate: null,
  };
  return assembleScenarioCard(
    [
      { name: "decode", card: scenarioCard(ratio, commits) },
      { name: "chat", card: scenarioCard(1, commits) },
    ],
    null,
  );
}
