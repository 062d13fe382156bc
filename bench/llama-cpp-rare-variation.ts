import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseRoundConfig } from "../src/config/load-round-config.js";
import { findFreePort } from "../src/engine/find-free-port.js";
import { silentLogger } from "../src/logger.js";
import { runRound } from "../src/round/run-round.js";
import { locateLlamaCpp } from "../harness/llama-cpp/locate-llama-cpp.js";
import { QWEN3_TOKENIZER, llamaCppPrompts } from "../harness/llama-cpp/make-llama-cpp-round.js";

/*
 * Figure 18: an engine whose answers vary rarely, judged by the unexplained rule (#38). llama.cpp's
 * CPU server with the tiny model, 4 slots and the requests in flight together, is the same server in
 * both seats for 10 rounds of the default 4 runs: its answers at temperature 0 depend on what shares the
 * batch, and four runs often show no variation at all. Before, one answer in 64 parting from every
 * baseline answer failed such a round "at once" ("the baseline answered every prompt the same way in
 * every run"); each round here says how many answers were unexplained, which measure decided, and
 * whether the unexplained rule failed it. Rounds are short (16 prompts of at most 48 tokens) because
 * the machine's 2 cores are shared.
 */

export interface RareVariationRound {
  wallMs: number;
  /** Candidate answers none of the baseline's explained, of those compared. */
  unexplained: number;
  compared: number;
  /** Prompts the baseline itself answered more than one way over its runs. */
  baselineVaried: number;
  /** The baseline's answers its other runs do not explain, of those held to them. */
  baselineNovel: number;
  baselineCompared: number;
  pValue: number | null;
  /** Which measure decided the unexplained rule (judgeUnexplained). */
  rule: string | null;
  /** Whether the unexplained rule is among the gate's reasons. */
  failedOnUnexplained: boolean;
  /** The gate's other reasons: an A/A round fails the speed bar by design. */
  otherReasons: string[];
}

export interface RareVariationFigure {
  rounds: RareVariationRound[];
  prompts: number;
  runs: number;
}

const PROMPTS = 16;
const MAX_TOKENS = 48;

/** The server with 4 slots: requests in flight together share its batch, as on a GPU. */
function batchingServer(server: string, model: string): string[] {
  return [server, "-m", model, "--alias", "tiny", "--host", "127.0.0.1", "--port", "{port}", "-c", "4096", "-np", "4", "-t", "1"];
}

export async function measureRareVariation(options: { rounds?: number; log?: (line: string) => void } = {}): Promise<RareVariationFigure> {
  const found = locateLlamaCpp();
  if ("missing" in found) throw new Error(found.missing);
  const dir = await mkdtemp(join(tmpdir(), "speedgate-rare-variation-"));
  const rounds: RareVariationRound[] = [];
  try {
    const prompts = llamaCppPrompts(PROMPTS);
    await writeFile(join(dir, "prompts.jsonl"), prompts.map((prompt) => JSON.stringify(prompt)).join("\n"));
    for (let index = 0; index < (options.rounds ?? 10); index++) {
      const config = parseRoundConfig({
        engine: "llama.cpp",
        runtime: "process",
        port: await findFreePort(),
        health: { path: "/health", timeoutS: 120, intervalMs: 50 },
        baseline: { command: batchingServer(found.server, found.model), cwd: dir },
        bench: {
          prompts: "prompts.jsonl",
          model: "tiny",
          maxTokens: MAX_TOKENS,
          // 16 requests 20 ms apart into 4 slots: the batch is full for most of each run.
          requestIntervalMs: 20,
          contextLimit: 2048,
          tolerance: 0.9,
          tokenizer: QWEN3_TOKENIZER,
        },
        gate: { minRoundScore: 1, minPrompts: 4 },
        docker: { stopTimeoutS: 2 },
      });
      const started = performance.now();
      const card = await runRound({
        round: { config, configPath: join(dir, "round.yaml"), prompts, patch: null },
        logger: silentLogger,
        signal: new AbortController().signal,
        runId: `bench-rare-${Date.now().toString(36)}-${index}`,
      });
      const answers = card.unexplainedAnswers;
      const round: RareVariationRound = {
        wallMs: performance.now() - started,
        unexplained: answers?.count ?? 0,
        compared: answers?.compared ?? 0,
        baselineVaried: card.prompts.filter((prompt) => (prompt.baselineAnswers ?? 0) >= 2).length,
        baselineNovel: answers?.baselineNovel ?? 0,
        baselineCompared: answers?.baselineCompared ?? 0,
        pValue: answers?.pValue ?? null,
        rule: card.gate.unexplainedDecision?.rule ?? null,
        failedOnUnexplained: card.gate.reasons.some((reason) => reason.includes("are none the baseline gave")),
        otherReasons: card.gate.reasons.filter((reason) => !reason.includes("are none the baseline gave")),
      };
      rounds.push(round);
      options.log?.(
        `round ${index + 1}: ${(round.wallMs / 1000).toFixed(1)} s, ${round.unexplained} of ${round.compared} answers unexplained, ` +
          `baseline varied on ${round.baselineVaried} prompts (${round.baselineNovel} of ${round.baselineCompared} odd), ` +
          `p ${round.pValue?.toFixed(3) ?? "—"}, ${round.rule ?? "no decision"}, ` +
          `${round.failedOnUnexplained ? "FAILED on unexplained answers" : "not failed on them"}`,
      );
    }
    return { rounds, prompts: PROMPTS, runs: 4 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figure = await measureRareVariation({ rounds: Number(process.argv[2] ?? 10), log: (line) => console.log(line) });
  const failed = figure.rounds.filter((round) => round.failedOnUnexplained).length;
  console.log(`${failed} of ${figure.rounds.length} rounds failed on unexplained answers`);
}
