import type { CompletedRequest, RequestRecord } from "../scoring/request-record.js";
import { UNSTREAMED_TOKEN_SLACK } from "../scoring/token-slack.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import { utf8LengthsAt } from "../tokens/utf8-length.js";

/**
 * Speedgate's own count of a completed stream: the reasoning and the content are tokenized apart
 * (they are two texts), and each chunk's count is the number of tokens whose text had fully arrived
 * with it, so the time to reach k tokens is the arrival of the chunk that completes the k-th token.
 * The engine's claim stays in `claimedTokens`.
 */
export function countWithTokenizer(record: CompletedRequest, counter: TokenCounter): void {
  const text = record.text;
  if (!text) return;
  const reasoning = counter.count(text.reasoning);
  const content = counter.count(text.content);
  let reasoningDone = 0;
  let contentDone = 0;
  const { chunks } = record;
  for (let index = 0; index < chunks.length; index++) {
    const reasoningEnd = text.reasoningEnds[index] ?? text.reasoning.length;
    const contentEnd = text.contentEnds[index] ?? text.content.length;
    while (reasoningDone < reasoning.ends.length && (reasoning.ends[reasoningDone] ?? 0) <= reasoningEnd) reasoningDone++;
    while (contentDone < content.ends.length && (content.ends[contentDone] ?? 0) <= contentEnd) contentDone++;
    const chunk = chunks[index];
    if (chunk) chunk.tokens = reasoningDone + contentDone;
  }
  record.outputTokens = reasoning.ids.length + content.ids.length;
  record.tokenIds = { reasoning: reasoning.ids, content: content.ids };
  record.countedBy = "tokenizer";
  record.tokensEstimated = false;
  record.implausible = null;
}

/**
 * Without a tokenizer the counts are the engine's word, but bounded by what its stream held: every
 * token is at least one byte of text, so no count, after any chunk or at the end, may exceed the
 * UTF-8 bytes streamed so far plus a few tokens that are never streamed. Sets `implausible` with
 * what was claimed and what was streamed when a count breaks the bound.
 */
export function boundClaimsByBytes(record: CompletedRequest): void {
  const text = record.text;
  if (!text) return;
  const reasoningBytes = utf8LengthsAt(text.reasoning, text.reasoningEnds);
  const contentBytes = utf8LengthsAt(text.content, text.contentEnds);
  const { chunks } = record;
  for (let index = 0; index < chunks.length; index++) {
    const bytes = (reasoningBytes[index] ?? 0) + (contentBytes[index] ?? 0);
    const claimed = chunks[index]?.tokens ?? 0;
    if (claimed > bytes + UNSTREAMED_TOKEN_SLACK) {
      record.implausible =
        `claimed ${claimed} tokens by chunk ${index + 1} of ${chunks.length}, which had streamed ${bytes} bytes of text (a token is at ` +
        `least one byte; at most ${bytes + UNSTREAMED_TOKEN_SLACK} with ${UNSTREAMED_TOKEN_SLACK} unstreamed)`;
      return;
    }
  }
  const total = Buffer.byteLength(text.reasoning) + Buffer.byteLength(text.content);
  const claimed = Math.max(record.outputTokens, record.claimedTokens ?? 0);
  if (claimed > total + UNSTREAMED_TOKEN_SLACK) {
    record.implausible =
      `claimed ${claimed} tokens but streamed ${total} bytes of text (a token is at least one byte; at most ` +
      `${total + UNSTREAMED_TOKEN_SLACK} with ${UNSTREAMED_TOKEN_SLACK} unstreamed)`;
    return;
  }
  record.implausible = null;
}

/**
 * Settles the counts of one engine's records once its benchmark is over, so that tokenizing never
 * competes with arriving chunks for the event loop: with a tokenizer speedgate counts every answer
 * itself, without one it bounds each engine's claims by the bytes it streamed.
 */
export function finalizeRecords(records: Iterable<RequestRecord>, counter: TokenCounter | null): void {
  for (const record of records) {
    if (!record.ok) continue;
    if (counter) countWithTokenizer(record, counter);
    else boundClaimsByBytes(record);
  }
}
