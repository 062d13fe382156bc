import { pathToFileURL } from "node:url";
import { LogRingBuffer } from "../src/engine/log-ring-buffer.js";
import { median } from "../src/scoring/median.js";

/*
 * Figure 8: what one endless log line costs the harness. 32 MiB without a newline, in the 64 KiB
 * chunks a pipe or Docker's log stream delivers, through the line buffer both runtimes use (the
 * Docker runtime's old tail spent 33 s of blocked event loop on this, growing quadratically), and
 * the same line in one-character writes, the worst case for re-reading an unfinished line. Linear
 * means 32 MiB costs about four times 8 MiB.
 */

const MiB = 1024 * 1024;

export interface EndlessLineFigure {
  /** Median milliseconds to take 32 MiB without a newline in 64 KiB chunks, then a line end. */
  ms32MiB: number;
  /** The same for 8 MiB, to show the growth is linear. */
  ms8MiB: number;
  /** Median milliseconds to take 1 MiB written one character at a time. */
  msOneCharWrites: number;
  /** Characters the buffer held for the line at the end. */
  keptChars: number;
  goalMs: number;
  runs: number;
}

function timeChunks(totalBytes: number): { ms: number; keptChars: number } {
  const log = new LogRingBuffer();
  const chunk = Buffer.alloc(64 * 1024, "x");
  const started = performance.now();
  for (let written = 0; written < totalBytes; written += chunk.length) log.write("stdout", chunk);
  log.write("stdout", "\n");
  const ms = performance.now() - started;
  return { ms, keptChars: log.snapshot()[0]?.length ?? 0 };
}

function timeOneCharWrites(totalChars: number): number {
  const log = new LogRingBuffer();
  const started = performance.now();
  for (let index = 0; index < totalChars; index++) log.write("stdout", "x");
  log.write("stdout", "\n");
  return performance.now() - started;
}

export function measureEndlessLine(options: { runs?: number } = {}): EndlessLineFigure {
  const runs = options.runs ?? 5;
  const at32: number[] = [];
  const at8: number[] = [];
  const oneChar: number[] = [];
  let keptChars = 0;
  for (let run = 0; run < runs; run++) {
    const big = timeChunks(32 * MiB);
    at32.push(big.ms);
    keptChars = big.keptChars;
    at8.push(timeChunks(8 * MiB).ms);
    oneChar.push(timeOneCharWrites(MiB));
  }
  return {
    ms32MiB: median(at32) ?? Number.NaN,
    ms8MiB: median(at8) ?? Number.NaN,
    msOneCharWrites: median(oneChar) ?? Number.NaN,
    keptChars,
    goalMs: 1_000,
    runs,
  };
}

// `tsx bench/log-buffer-endless-line.ts` prints this figure alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.stdout.write(`${JSON.stringify(measureEndlessLine(), null, 2)}\n`);
}
