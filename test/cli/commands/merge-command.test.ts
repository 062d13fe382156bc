import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { createRecordingLogger } from "../../../src/logger.js";
import { parseScorecardJson } from "../../../src/scorecard/read-scorecard.js";
import { selectShard } from "../../../src/shard/select-shard.js";
import { captureStream } from "../../support/capture-stream.js";
import { cardFor, recordRound } from "../../shard/synthetic-round.js";
import { makeTempDir } from "../../support/make-temp-dir.js";

async function merge(args: string[]) {
  const stdout = captureStream();
  const logger = createRecordingLogger();
  const code = await main(["merge", ...args], { stdout, logger });
  return { code, out: stdout.text(), errors: logger.lines.filter((line) => line.level === "error").map((line) => line.message) };
}

describe("speedgate merge", () => {
  let dir: string;
  const recorded = recordRound(20);
  const whole = cardFor(recorded, recorded.promptIds);

  beforeAll(async () => {
    dir = await makeTempDir("speedgate-merge-");
    const prompts = recorded.promptIds.map((id) => ({ id }));
    for (const index of [1, 2, 3]) {
      const shard = { index, count: 3 };
      const scored = cardFor(
        recorded,
        selectShard(prompts, shard).map((prompt) => prompt.id),
        { shard },
      );
      // The synthetic round leaves 2 of its 19 compared prompts unscored on purpose; this bar lets that through.
      const card = { ...scored, gate: { ...scored.gate, maxUnscored: 0.2, maxUnexplained: 0.2, use: "round-score" as const } };
      // The layout actions/download-artifact leaves: one folder per artifact.
      await mkdir(join(dir, "shards", `speedgate-shard-${index}`), { recursive: true });
      await writeFile(join(dir, "shards", `speedgate-shard-${index}`, "scorecard.json"), JSON.stringify(card));
      // The same shards under a bar the round does not reach.
      await mkdir(join(dir, "high-bar"), { recursive: true });
      // The same shards from runners on an older speedgate: the first one's card in schema 1.
      const { metrics: _metrics, gpuState: _gpuState, docsBaseUrl: _docs, ...v1 } = card;
      await mkdir(join(dir, "mixed-versions", `speedgate-shard-${index}`), { recursive: true });
      await writeFile(
        join(dir, "mixed-versions", `speedgate-shard-${index}`, "scorecard.json"),
        JSON.stringify(index === 1 ? { ...v1, schemaVersion: 1 } : card),
      );
      await writeFile(join(dir, "high-bar", `shard-${index}.json`), JSON.stringify({ ...card, gate: { ...card.gate, minRoundScore: 5 } }));
    }
  });

  it("merges shard cards of schema 1 and 2 into a schema 2 card, with the metrics of the shards that have them", async () => {
    const { code, out, errors } = await merge([join(dir, "mixed-versions"), "--out", join(dir, "merged-mixed")]);
    expect(errors).toEqual([]);
    expect(code).toBe(0);
    expect(out).toContain("Where the speed came from");
    const merged = parseScorecardJson(await readFile(join(dir, "merged-mixed", "scorecard.json"), "utf8"), "merged");
    expect(merged.schemaVersion).toBe(2);
    expect(merged.roundScore).toBe(whole.roundScore);
    expect(merged.metrics?.prompts).toBeLessThan(whole.metrics?.prompts ?? 0);
    expect(await readFile(join(dir, "merged-mixed", "scorecard.md"), "utf8")).toContain("the other shards' cards carried no metrics");
  });

  it("merges a folder of shard cards, prints the card and writes it with --out", async () => {
    const { code, out } = await merge([join(dir, "shards"), "--out", join(dir, "merged")]);
    expect(code).toBe(0);
    expect(out.split("\n")[0]).toContain(`Round score ${whole.roundScore?.toFixed(2)}×`);
    const merged = parseScorecardJson(await readFile(join(dir, "merged", "scorecard.json"), "utf8"), "merged");
    expect(merged.roundScore).toBe(whole.roundScore);
    expect(merged.promptsTotal).toBe(20);
    expect(await readFile(join(dir, "merged", "scorecard.md"), "utf8")).toContain("<!-- speedgate -->");
  });

  it("takes files and globs", async () => {
    const byGlob = await merge([join(dir, "shards", "*", "scorecard.json"), "--format", "json"]);
    expect(byGlob.code).toBe(0);
    expect((JSON.parse(byGlob.out) as { promptsTotal: number }).promptsTotal).toBe(20);
  });

  it("exits 1 with --fail-on-gate when the merged round does not pass", async () => {
    const cards = [1, 2, 3].map((index) => join(dir, "high-bar", `shard-${index}.json`));
    expect((await merge([...cards, "--fail-on-gate"])).code).toBe(1);
    expect((await merge(cards)).code).toBe(0);
    expect((await merge([join(dir, "shards"), "--fail-on-gate"])).code).toBe(0);
  });

  it("refuses a missing shard with exit code 2, naming it", async () => {
    const { code, errors } = await merge([
      join(dir, "shards", "speedgate-shard-1", "scorecard.json"),
      join(dir, "shards", "speedgate-shard-3", "scorecard.json"),
    ]);
    expect(code).toBe(2);
    expect(errors[0]).toContain("shard 2 of 3 is missing");
  });

  it("refuses a path that names no card", async () => {
    const { code, errors } = await merge([join(dir, "nothing-here")]);
    expect(code).toBe(2);
    expect(errors[0]).toMatch(/^speedgate merge: expected a file, folder or glob of shard cards, but .*nothing-here does not exist$/);
  });
});
