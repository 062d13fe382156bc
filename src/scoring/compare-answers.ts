import type { CompletedRequest, StreamedText } from "./request-record.js";
import { countSlack } from "./token-slack.js";

/** How far two answers to one prompt agree. */
export interface AnswerComparison {
  /** Tokens both answers share from their start, in speedgate's count (see compareAnswers). */
  commonTokens: number;
  /** Whether the answers part at all: false when one is the start of the other, or they are equal. */
  parted: boolean;
  /** Short quotes of both answers from just before where they part; null when they do not part. */
  excerpts: { baseline: string; candidate: string } | null;
  /** By token ids (speedgate's tokenizer) or by text, expressed in the baseline's counts. */
  by: "tokens" | "text";
}

/** Where two answers stop agreeing: reasoning first, then content, as they were streamed. */
interface Parting {
  part: "reasoning" | "content";
  /** Common prefix length in the reasoning (the whole of it when they part in the content). */
  reasoning: number;
  content: number;
  parted: boolean;
}

function commonPrefix(a: ArrayLike<number> | string, b: ArrayLike<number> | string): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  if (typeof a === "string" && typeof b === "string") {
    while (index < length && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  } else {
    while (index < length && (a as ArrayLike<number>)[index] === (b as ArrayLike<number>)[index]) index++;
  }
  return index;
}

/**
 * The common start of two answers made of a reasoning part and a content part. Where one engine's
 * reasoning ends and the other's goes on, they part, unless the shorter answer ended there altogether.
 */
function findParting(
  baseline: { reasoning: ArrayLike<number> | string; content: ArrayLike<number> | string },
  candidate: { reasoning: ArrayLike<number> | string; content: ArrayLike<number> | string },
): Parting {
  const reasoning = commonPrefix(baseline.reasoning, candidate.reasoning);
  const bothReasoningLeft = reasoning < baseline.reasoning.length && reasoning < candidate.reasoning.length;
  const sameReasoning = reasoning === baseline.reasoning.length && reasoning === candidate.reasoning.length;
  if (!sameReasoning) {
    if (bothReasoningLeft) return { part: "reasoning", reasoning, content: 0, parted: true };
    // One reasoning stops early: they part if that engine went on with content the other did not give there.
    const shorter = reasoning === baseline.reasoning.length ? baseline : candidate;
    return { part: "reasoning", reasoning, content: 0, parted: shorter.content.length > 0 };
  }
  const content = commonPrefix(baseline.content, candidate.content);
  return { part: "content", reasoning, content, parted: content < baseline.content.length && content < candidate.content.length };
}

const EXCERPT_BEFORE = 12;
const EXCERPT_AFTER = 28;

/** A short quote of `text` around `at`, in JSON string escapes so control characters and quotes stay visible and harmless. */
function quote(text: string, at: number): string {
  const isLowSurrogate = (index: number): boolean => index > 0 && index < text.length && (text.charCodeAt(index) & 0xfc00) === 0xdc00;
  // Never cut a character in two (an emoji is two UTF-16 units).
  let from = Math.max(0, at - EXCERPT_BEFORE);
  if (isLowSurrogate(from)) from--;
  let to = Math.min(text.length, at + EXCERPT_AFTER);
  if (isLowSurrogate(to)) to++;
  return `${from > 0 ? "…" : ""}${JSON.stringify(text.slice(from, to))}${to < text.length ? "…" : ""}`;
}

function excerpts(baseline: StreamedText, candidate: StreamedText, parting: Parting): { baseline: string; candidate: string } {
  const text = (side: StreamedText): { text: string; at: number } =>
    parting.part === "reasoning" && parting.reasoning < side.reasoning.length
      ? { text: side.reasoning, at: parting.reasoning }
      : { text: side.content, at: parting.content };
  const b = text(baseline);
  const c = text(candidate);
  return { baseline: quote(b.text, b.at), candidate: quote(c.text, c.at) };
}

/**
 * The baseline's token count at a text position (reasoning, content) that lies within its stream:
 * whole chunks up to the position, and the share of the next chunk's tokens that its covered
 * characters make, rounded down. The baseline is the unpatched engine: its counts are the reference.
 */
export function baselineTokensAt(record: CompletedRequest, text: StreamedText, reasoning: number, content: number): number {
  const { chunks } = record;
  let tokens = 0;
  for (let index = 0; index < chunks.length; index++) {
    const reasoningEnd = text.reasoningEnds[index] ?? 0;
    const contentEnd = text.contentEnds[index] ?? 0;
    const chunkTokens = chunks[index]?.tokens ?? tokens;
    if (reasoningEnd <= reasoning && contentEnd <= content) {
      tokens = chunkTokens;
      continue;
    }
    const reasoningStart = index > 0 ? (text.reasoningEnds[index - 1] ?? 0) : 0;
    const contentStart = index > 0 ? (text.contentEnds[index - 1] ?? 0) : 0;
    const added = reasoningEnd - reasoningStart + (contentEnd - contentStart);
    const covered =
      Math.max(0, Math.min(reasoning, reasoningEnd) - reasoningStart) + Math.max(0, Math.min(content, contentEnd) - contentStart);
    if (added > 0) tokens += Math.floor(((chunkTokens - tokens) * covered) / added);
    break;
  }
  return tokens;
}

/**
 * Compares the candidate's answer with the baseline's. With speedgate's tokenizer both are token id
 * sequences and the common prefix is counted in tokens. Without one, the texts are compared and
 * the common prefix is expressed in the baseline's own counts (see baselineTokensAt). Null when a
 * record holds no text (made by hand).
 */
export function compareAnswers(baseline: CompletedRequest, candidate: CompletedRequest): AnswerComparison | null {
  const baselineText = baseline.text;
  const candidateText = candidate.text;
  if (baseline.tokenIds && candidate.tokenIds) {
    const parting = findParting(baseline.tokenIds, candidate.tokenIds);
    const commonTokens = parting.reasoning + parting.content;
    // Token ids without texts come from the reference engine's offline model (simulate-round.ts): no quotes to show.
    const textParting = baselineText && candidateText ? findParting(baselineText, candidateText) : null;
    const quoted =
      parting.parted && baselineText && candidateText && textParting?.parted ? excerpts(baselineText, candidateText, textParting) : null;
    return { commonTokens, parted: parting.parted, excerpts: quoted, by: "tokens" };
  }
  if (!baselineText || !candidateText) return null;
  const textParting = findParting(baselineText, candidateText);
  const quoted = textParting.parted ? excerpts(baselineText, candidateText, textParting) : null;
  if (!textParting.parted)
    return { commonTokens: Math.min(baseline.outputTokens, candidate.outputTokens), parted: false, excerpts: null, by: "text" };
  const commonTokens = baselineTokensAt(baseline, baselineText, textParting.reasoning, textParting.content);
  return { commonTokens, parted: true, excerpts: quoted, by: "text" };
}

/**
 * Without a tokenizer: does the candidate claim more tokens than the baseline did for the same
 * text? Both run the same model, so the same text is the same number of tokens, give or take the
 * count slack. Checked at every candidate chunk inside the answers' common start, so a claim
 * inflated early and corrected later is caught too. Returns the reason, or null.
 */
export function findInflatedClaims(baseline: CompletedRequest, candidate: CompletedRequest): string | null {
  const b = baseline.text;
  const c = candidate.text;
  if (!b || !c || baseline.countedBy === "tokenizer" || candidate.countedBy === "tokenizer") return null;
  const parting = findParting(b, c);
  const limitReasoning = parting.reasoning;
  const limitContent = parting.part === "content" ? parting.content : 0;
  let baselineIndex = 0;
  for (let index = 0; index < candidate.chunks.length; index++) {
    const reasoning = c.reasoningEnds[index] ?? 0;
    const content = c.contentEnds[index] ?? 0;
    if (reasoning > limitReasoning || content > limitContent) break;
    // The baseline's count once its stream covered this much of the same text: an upper bound of its count there.
    while (
      baselineIndex < baseline.chunks.length - 1 &&
      ((b.reasoningEnds[baselineIndex] ?? 0) < reasoning || (b.contentEnds[baselineIndex] ?? 0) < content)
    ) {
      baselineIndex++;
    }
    const reference = baseline.chunks[baselineIndex]?.tokens ?? baseline.outputTokens;
    const claimed = candidate.chunks[index]?.tokens ?? 0;
    if (claimed > reference + countSlack(reference)) {
      const chars = reasoning + content;
      return (
        `claimed ${claimed} tokens for the first ${chars} characters of its answer, which are the baseline's too, where the baseline ` +
        `counted at most ${reference}`
      );
    }
  }
  return null;
}
