import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { createRecordingLogger } from "../../../src/logger.js";
import { CARD_MARKER } from "../../../src/scorecard/render/render-markdown.js";
import { captureStream } from "../../support/capture-stream.js";
import { makeCard, seedOomFailure } from "../../../harness/make-card.js";
import { makeTempDir } from "../../support/make-temp-dir.js";

async function cardFile(content: string): Promise<string> {
  const dir = await makeTempDir("speedgate-render-");
  const path = join(dir, "scorecard.json");
  await writeFile(path, content);
  return path;
}

async function render(args: string[]) {
  const stdout = captureStream();
  const logger = createRecordingLogger();
  const code = await main(["render", ...args], { stdout, logger });
  return { code, out: stdout.text(), errors: logger.lines.filter((l) => l.level === "error").map((l) => l.message) };
}

describe("speedgate render", () => {
  const card = makeCard([{ speedup: 1.2 }, { candidateTokens: 12 }], { failure: null });

  it("prints the text card by default", async () => {
    const { code, out } = await render([await cardFile(JSON.stringify(card))]);
    expect(code).toBe(0);
    expect(out).toMatch(/^❌ Round score 0\.60×, but 1 of 2 prompts were not scored \(\+3 more reasons\)\n/);
    expect(out).toContain("answered 12 of 256 tokens (tolerance 90%)");
  });

  it("prints Markdown and JSON on request", async () => {
    const path = await cardFile(JSON.stringify(makeCard([{ speedup: 1.1 }], { failure: seedOomFailure() })));
    const md = await render([path, "--format", "md"]);
    expect(md.out.startsWith(CARD_MARKER)).toBe(true);
    const json = await render([path, "--format", "json"]);
    expect((JSON.parse(json.out) as { failure: { kind: string } }).failure.kind).toBe("cuda_oom");
  });

  it("refuses a card that breaks the schema, naming the field, with exit code 2", async () => {
    const { code, errors } = await render([await cardFile(JSON.stringify({ ...card, roundScore: "fast" }))]);
    expect(code).toBe(2);
    expect(errors[0]).toContain('roundScore: Invalid input: expected number, received string, got "fast"');
  });

  it("says what is wrong with the command line", async () => {
    expect((await render([])).code).toBe(2);
    const bad = await render([await cardFile(JSON.stringify(card)), "--format", "html"]);
    expect(bad.code).toBe(2);
    expect(bad.errors[0]).toBe('speedgate render: --format: expected md, json or text, got "html"');
    const unreadable = await render(["/nonexistent/scorecard.json"]);
    expect(unreadable.errors[0]).toContain("expected a readable scorecard.json (ENOENT)");
  });
});
