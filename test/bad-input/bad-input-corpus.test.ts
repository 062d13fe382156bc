import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { listConfigFields } from "../../bench/bad-input/list-config-fields.js";
import { type BadInputCorpusResult, type CorpusRow, runBadInputCorpus } from "../../bench/bad-input-corpus.js";
import { main } from "../../src/cli/main.js";
import { createRecordingLogger } from "../../src/logger.js";
import { makeTempDir } from "../support/make-temp-dir.js";

const show = (rows: readonly CorpusRow[]): string =>
  rows.map((row) => `${row.outcome} [${row.category}] ${row.input}: ${row.message}`).join("\n");

describe("bad input: a clear error, nothing half-written (bench/bad-input-corpus.ts)", () => {
  let result: BadInputCorpusResult;
  beforeAll(async () => {
    result = await runBadInputCorpus();
  }, 180_000);

  it("tries a wrong value for every field of the round config schema", () => {
    const tried = new Set(result.rows.filter((row) => row.category === "round config field").map((row) => row.input.split(":")[0]));
    const untried = listConfigFields().filter((field) => !tried.has(field));
    expect(untried).toEqual([]);
  });

  it("accepts none of the bad inputs", () => {
    const accepted = result.rows.filter((row) => row.outcome === "accepted");
    expect(accepted.length, show(accepted)).toBe(0);
  });

  it.each([
    "round config field",
    "round config path",
    "round config file",
    "prompts file",
    "patch",
    "artifact",
    "/rescore comment",
    "app attack",
    "process fence",
  ])("answers every %s input with a clear error naming the field, line or problem", (category) => {
    const rows = result.rows.filter((row) => row.category === category);
    expect(rows.length).toBeGreaterThan(0);
    const unclear = rows.filter((row) => row.outcome !== "clear");
    expect(unclear.length, show(unclear)).toBe(0);
  });

  it("names the line of a bad prompts file", () => {
    const line3 = result.rows.find((row) => row.input === "line 3 is not JSON");
    expect(line3?.message).toMatch(/line 3: expected a JSON object/);
  });

  it("passes nothing from a /rescore comment on: dispatches carry only pr, sha and the base GitHub names, and no process starts", () => {
    const rows = result.rows.filter((row) => row.category === "/rescore comment");
    // The checks mean something only if most of the hostile comments did reach the dispatch.
    expect(rows.filter((row) => row.message.startsWith("dispatched once")).length).toBeGreaterThanOrEqual(10);
    expect(rows.every((row) => row.message.endsWith("no process started"))).toBe(true);
  });

  it("ignores every webhook payload missing a field the handler needs, making no API write", () => {
    const rows = result.rows.filter((row) => row.category === "webhook payload");
    expect(rows.length).toBeGreaterThanOrEqual(25);
    const crashes = rows.filter((row) => row.outcome === "crash");
    expect(crashes.length, show(crashes)).toBe(0);
    // Those the handlers cannot act on are ignored outright. A missing decoration (a link, the sender of
    // a comment) still posts; a run without its head repository is answered as untrusted, never scored.
    const acted = rows.filter((row) => row.message !== "ignored, no API write").map((row) => row.input);
    expect(
      acted.every((input) => /html_url|\.event|run_started_at|head_repository|without sender/.test(input)),
      acted.join("\n"),
    ).toBe(true);
    expect(rows.find((row) => row.input.endsWith("without workflow_run.head_repository"))?.message).not.toContain("comments");
  });

  it("crashes on no input at all", () => {
    expect(result.crashes, show(result.rows.filter((row) => row.outcome === "crash"))).toBe(0);
  });
});

describe("speedgate run on bad input writes nothing into --out", () => {
  async function runInto(files: Record<string, string>, extra: string[] = []): Promise<{ code: number; written: string[]; error: string }> {
    const dir = await makeTempDir("speedgate-half-written-");
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    const out = join(dir, "out");
    await mkdir(out);
    const logger = createRecordingLogger();
    const stdout = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const code = await main(["run", "--config", join(dir, "round.yml"), "--out", out, ...extra.map((arg) => arg.replace("{dir}", dir))], {
      logger,
      stdout,
    });
    return { code, written: await readdir(out), error: logger.lines.map((line) => line.message).join("\n") };
  }
  const prompts = '{"id": "p1", "prompt": "hi"}\n';
  const config = (bench: string) =>
    `engine: sim\nruntime: process\nport: 1\nbaseline:\n  command: [node, -e, "process.exit(3)"]\ncandidate:\n  sourceDir: ` +
    `.\nbench:\n${bench}\ngate:\n  minRoundScore: 1\n`;
  const goodBench = "  prompts: prompts.jsonl\n  maxTokens: 16\n  requestIntervalMs: 0\n  contextLimit: 4096\n  tolerance: 0.9";

  it("leaves the --out folder empty for a config with a bad field", async () => {
    const { code, written, error } = await runInto({
      "round.yml": config(goodBench.replace("tolerance: 0.9", "tolerance: 90%")),
      "prompts.jsonl": prompts,
    });
    expect(code).toBe(2);
    expect(error).toContain("bench.tolerance");
    expect(written).toEqual([]);
  });

  it("leaves the --out folder empty for a prompts file with a bad line", async () => {
    const { code, written, error } = await runInto({ "round.yml": config(goodBench), "prompts.jsonl": `${prompts}{"id": "p2"\n` });
    expect(code).toBe(2);
    expect(error).toContain("line 2");
    expect(written).toEqual([]);
  });

  it("leaves the --out folder empty for an empty patch", async () => {
    const { code, written, error } = await runInto({ "round.yml": config(goodBench), "prompts.jsonl": prompts, "empty.patch": "" }, [
      "--patch",
      "{dir}/empty.patch",
    ]);
    expect(code).toBe(2);
    expect(error).toContain("empty");
    expect(written).toEqual([]);
  });
});
