import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadBenchTokenizer } from "./lib/load-bench-tokenizer.js";

/*
 * Figure 8: what speedgate's own token counting costs. Answers of about 2 KB of varied text (this
 * repository's documentation and sources, prose and code) are counted the way a round counts them
 * after its benchmark: tokenized with a real model's tokenizer, each token's end found in the text.
 * Reported per token, the unit a round's size is measured in.
 */

export interface TokenizingFigure {
  tokens: number;
  usPerToken: number;
  /** What one engine's share of a 5,000-prompt round of 512-token answers would take, in seconds. */
  secondsPer5000x512: number;
}

function answers(root: string): string[] {
  const texts: string[] = [readFileSync(join(root, "README.md"), "utf8")];
  for (const dir of ["docs", "src/client", "src/scoring"]) {
    for (const name of readdirSync(join(root, dir))) if (/\.(md|ts)$/.test(name)) texts.push(readFileSync(join(root, dir, name), "utf8"));
  }
  const joined = texts.join("\n");
  const pieces: string[] = [];
  for (let at = 0; at < joined.length; at += 2048) pieces.push(joined.slice(at, at + 2048));
  return pieces;
}

export function measureTokenizing(): TokenizingFigure {
  const counter = loadBenchTokenizer();
  const texts = answers(join(import.meta.dirname, ".."));
  // Warm up the JIT and the tokenizer's word cache as a round's first answers would.
  for (const text of texts.slice(0, 20)) counter.count(text);
  let tokens = 0;
  const started = performance.now();
  for (const text of texts) tokens += counter.count(text).ids.length;
  const usPerToken = ((performance.now() - started) * 1000) / tokens;
  return { tokens, usPerToken, secondsPer5000x512: (usPerToken * 5000 * 512) / 1e6 };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figure = measureTokenizing();
  console.log(
    `tokenizing: ${figure.tokens} tokens at ${figure.usPerToken.toFixed(2)} µs/token (${figure.secondsPer5000x512.toFixed(1)} s for ` +
      `5,000 answers of 512 tokens)`,
  );
}
