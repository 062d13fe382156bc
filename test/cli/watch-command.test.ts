import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readScorecard } from "../../src/scorecard/read-scorecard.js";
import { parseWatchState } from "../../src/watch/watch-state.js";
import { type MainHistory, buildMainHistory } from "../../harness/git/build-main-history.js";
import { watchedEngineFiles, writeWatchRound } from "../../harness/sim-engine/watched-engine.js";
import { getFreePort } from "../support/get-free-port.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { runCli } from "./support/sim-round.js";

/*
 * `speedgate watch` and `speedgate bisect` end to end: a real git repository of the reference engine
 * whose main grows by merged pull requests (harness/git/build-main-history.ts), each merge changing
 * the file the engine reads its speed from, and every round a base/head round of two main commits
 * through the process runtime's worktrees, as `speedgate run --base --head` runs it.
 *
 * The slowdowns here are large (a scenario 2.5× slower, merges 1.67× slower each): on this machine's
 * two shared cores a three-run round's interval spans ±20%, far wider than the 8% and 1.5% of the
 * issue's histories; those are proven on the plan with rounds of a runner's spread
 * (test/watch/plan-bisection.test.ts) and measured by the bench. What these tests prove is the
 * machinery: the range, the rounds, the worktrees, the reports and the state, with real engines.
 */

interface WatchJson {
  good: string;
  goodFrom: string;
  head: string;
  alarm: boolean;
  scenarios: { name: string | null; verdict: string; estimate: { score: number } | null }[];
  bisection: { kind: string; firstBad?: number } | null;
}

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, "utf8")) as T;
}

describe("speedgate watch on a main that merge 5 of 8 made slower", () => {
  let history: MainHistory;
  let configPath = "";

  beforeAll(async () => {
    const merges = Array.from({ length: 8 }, (_, index) => {
      const number = index + 1;
      // Merge 5 makes decode 2.5× slower and leaves chat as it was; the others touch only documentation.
      return number === 5
        ? { title: "scheduler: a slower decode path", files: watchedEngineFiles({ decode: 0.4, chat: 1 }) }
        : { title: `docs: note ${number}`, files: { [`docs/note-${number}.md`]: `note ${number}\n` } };
    });
    history = await buildMainHistory(await makeTempDir("speedgate-watch-repo-"), {
      initial: watchedEngineFiles({ decode: 1, chat: 1 }),
      merges,
      tag: "v0",
    });
    configPath = await writeWatchRound(await makeTempDir("speedgate-watch-config-"), {
      port: await getFreePort(),
      watch: { maxDrift: 0.9, since: { tag: "v0" }, maxRepeats: 2 },
    });
  });

  it("flags the drift against watch.since, bisects it to merge 5, moves the good commit to the head, quiet the next time", async () => {
    const out = await makeTempDir("speedgate-watch-out-");
    const statePath = join(await makeTempDir("speedgate-watch-state-"), "state.json");
    const head = history.merges[7]?.sha ?? "";
    const guilty = history.merges[4]?.sha ?? "";
    const first = await runCli([
      "watch",
      "--config",
      configPath,
      "--out",
      out,
      "--repo",
      history.repo.dir,
      "--state",
      statePath,
      "--bisect",
      "--fail-on-drift",
    ]);
    // --fail-on-drift: main drifted, so the step fails (after writing everything below).
    expect(first.code, first.logger.lines.map((line) => line.message).join("\n")).toBe(1);

    // The drift round: main's head against the tag, through a base/head round of the two commits.
    const card = await readScorecard(join(out, "scorecard.json"));
    expect(card.commits).toMatchObject({ base: history.good, head });
    const watch = await readJson<WatchJson>(join(out, "watch.json"));
    expect(watch).toMatchObject({ good: history.good, goodFrom: "since", head, alarm: true });
    expect(watch.scenarios.find((entry) => entry.name === "decode")?.verdict).toBe("drifted");
    expect(watch.scenarios.find((entry) => entry.name === "chat")?.verdict).not.toBe("drifted");

    // The bisection: merge 5 of the range named, with at most ⌈log2 8⌉ + 2 rounds after the drift round.
    expect(watch.bisection).toMatchObject({ kind: "single", firstBad: 5 });
    const bisection = await readJson<{ outcome: { kind: string; firstBad: number }; rounds: { key: string; card: string }[] }>(
      join(out, "bisection", "bisection.json"),
    );
    expect(bisection.rounds.length).toBeLessThanOrEqual(3 + 2);
    for (const round of bisection.rounds) {
      const stepCard = await readScorecard(join(out, "bisection", round.card));
      // Every probe's base is the good commit; the parent round's base is merge 4.
      expect(stepCard.commits?.base).toBe(round.key.startsWith("parent") ? history.merges[3]?.sha : history.good);
    }
    const markdown = await readFile(join(out, "bisection", "bisection.md"), "utf8");
    expect(markdown).toContain(`**Found: \`${guilty.slice(0, 12)}\` (merge 5 of 8 in the range).**`);
    expect(first.stdout).toContain("ALARM: main drifted (decode)");

    // The drift was reported: from now on the watch measures against the slower head, so the next night is quiet.
    const state = parseWatchState(await readFile(statePath, "utf8"), statePath);
    expect(state.good).toBe(head);
    expect(state.reported).toHaveLength(1);
    expect(state.reported[0]?.outcome).toContain(`single merge ${guilty.slice(0, 12)}`);
    const second = await runCli([
      "watch",
      "--config",
      configPath,
      "--out",
      await makeTempDir("speedgate-watch-out-"),
      "--repo",
      history.repo.dir,
      "--state",
      statePath,
    ]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("nothing merged since the good commit: no round was run");
  }, 900_000);

  it("bisects a named range with speedgate bisect and writes the range round and every step's card", async () => {
    const out = await makeTempDir("speedgate-bisect-out-");
    const good = history.merges[2]?.sha ?? "";
    const bad = history.merges[6]?.sha ?? "";
    const result = await runCli(["bisect", "--config", configPath, "--good", good, "--bad", bad, "--out", out, "--repo", history.repo.dir]);
    expect(result.code, result.logger.lines.map((line) => line.message).join("\n")).toBe(0);
    const range = await readScorecard(join(out, "range", "scorecard.json"));
    expect(range.commits).toMatchObject({ base: good, head: bad });
    const bisection = await readJson<{ outcome: { kind: string; firstBad: number }; commits: { sha: string }[] }>(
      join(out, "bisection.json"),
    );
    // Merges 3..7: merge 5 is index 2 of the range.
    expect(bisection.commits.map((commit) => commit.sha)).toEqual(history.merges.slice(2, 7).map((merge) => merge.sha));
    expect(bisection.outcome).toMatchObject({ kind: "single", firstBad: 2 });
    expect(result.stdout).toContain("**Found:");
  }, 900_000);

  it("refuses a state file it cannot read, naming the file and the field, before running anything", async () => {
    const statePath = join(await makeTempDir("speedgate-watch-state-"), "state.json");
    await writeFile(statePath, JSON.stringify({ version: 1, good: "not-a-sha" }));
    const out = await makeTempDir("speedgate-watch-out-");
    const result = await runCli(["watch", "--config", configPath, "--out", out, "--repo", history.repo.dir, "--state", statePath]);
    expect(result.code).toBe(2);
    const messages = result.logger.lines.map((line) => line.message).join("\n");
    expect(messages).toContain(`--state: ${statePath}: expected the watch's state (version 1), good: expected a full commit SHA`);
    expect(await readdir(out)).toEqual([]);
  });

  it("refuses a good commit that main was never at (a merged branch's own commit), naming --good, before running anything", async () => {
    const out = await makeTempDir("speedgate-bisect-out-");
    const branchCommit = history.merges[1]?.head ?? "";
    const result = await runCli([
      "bisect",
      "--config",
      configPath,
      "--good",
      branchCommit,
      "--bad",
      history.merges[7]?.sha ?? "",
      "--out",
      out,
      "--repo",
      history.repo.dir,
    ]);
    expect(result.code).toBe(2);
    expect(result.logger.lines.map((line) => line.message).join("\n")).toMatch(/--good: .* is not on the first-parent history/);
  });
});

describe("speedgate bisect on a drift that no single merge explains", () => {
  it("reports three merges, each 1.67× slower, as a gradual drift over the range", async () => {
    const history = await buildMainHistory(await makeTempDir("speedgate-gradual-repo-"), {
      initial: watchedEngineFiles({ decode: 1, chat: 1 }),
      merges: [1, 2, 3].map((number) => ({ title: `slower ${number}`, files: watchedEngineFiles({ decode: 0.6 ** number, chat: 1 }) })),
    });
    const configPath = await writeWatchRound(await makeTempDir("speedgate-gradual-config-"), { port: await getFreePort() });
    const out = await makeTempDir("speedgate-gradual-out-");
    const result = await runCli([
      "bisect",
      "--config",
      configPath,
      "--good",
      history.good,
      "--bad",
      history.merges[2]?.sha ?? "",
      "--out",
      out,
      "--repo",
      history.repo.dir,
      "--scenario",
      "decode",
    ]);
    expect(result.code, result.logger.lines.map((line) => line.message).join("\n")).toBe(0);
    const bisection = await readJson<{ outcome: { kind: string } }>(join(out, "bisection.json"));
    expect(bisection.outcome.kind).toBe("gradual");
    expect(result.stdout).toContain("**Gradual drift: no single merge explains it.**");
    expect(result.stdout).not.toContain("**Found");
  }, 900_000);
});
