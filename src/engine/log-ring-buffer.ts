import { StringDecoder } from "node:string_decoder";
import { MAX_LOG_LINE_CHARS } from "../safe-text/sanitize-log-tail.js";

export interface LogRingBufferLimits {
  /** Complete lines kept, newest last. */
  maxLines: number;
  /** UTF-8 bytes of the kept lines together. */
  maxBytes: number;
  /**
   * Characters of one kept line, the cut marker included (64 at least): a longer line keeps its
   * beginning and its end, with the number of characters cut in between.
   */
  maxLineChars: number;
}

/** Room for "[… 9007199254740991 characters cut …]". */
const MARKER_RESERVE = 48;

/**
 * A line as long as the card shows one, so a cut line reaches the card whole, marker and all. The
 * failure patterns look for exception lines, which are short; keeping both ends of a longer line
 * keeps a JSON dump's start and a progress bar's last frame (the card shows the frame after the last
 * carriage return).
 */
export const DEFAULT_LOG_LIMITS: LogRingBufferLimits = { maxLines: 2_000, maxBytes: 1024 * 1024, maxLineChars: MAX_LOG_LINE_CHARS };

/** One stream's unfinished line: whole while short, then its first half and a sliding end. */
interface PendingLine {
  decoder: StringDecoder;
  text: string;
  /** Set once the line outgrew maxLineChars: the characters kept from its start. */
  head: string | null;
  /** Past the head, the newest characters; trimmed only when twice the kept size, so appending stays linear. */
  tail: string;
  /** Characters dropped between head and tail so far. */
  cut: number;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Keeps the newest lines an engine (or a build) printed, bounded by count, by size and by the length
 * of each line, for both runtimes, so output that never ends a line or never stops cannot grow
 * speedgate's memory or its work per chunk: each chunk is scanned once for line ends, and an
 * unfinished line is never re-split. Each stream keeps its own unfinished line (stdout and stderr
 * interleave by whole lines) and its own decoder (a UTF-8 character may be split across chunks).
 */
export class LogRingBuffer {
  private readonly lines: string[] = [];
  private head = 0;
  private bytes = 0;
  private readonly pending = new Map<string, PendingLine>();
  private readonly limits: LogRingBufferLimits;
  private readonly headChars: number;
  private readonly tailChars: number;

  constructor(
    /** Each limit not given is the default's. */
    limits: Partial<LogRingBufferLimits> = {},
    /** Called with each complete line as it arrives (progress output, tests waiting for a line). */
    private readonly onLine?: (line: string) => void,
  ) {
    const merged = { ...DEFAULT_LOG_LIMITS, ...limits };
    // A line larger than the whole budget could not be kept anyway.
    this.limits = { ...merged, maxLineChars: Math.max(64, Math.min(merged.maxLineChars, merged.maxBytes)) };
    const kept = this.limits.maxLineChars - MARKER_RESERVE;
    this.headChars = Math.ceil(kept / 2);
    this.tailChars = kept - this.headChars;
  }

  /** Appends raw output of one stream (such as "stdout"); lines end at "\n", a "\r" before it is dropped. */
  write(stream: string, chunk: Buffer | string): void {
    const state = this.stateOf(stream);
    const text = typeof chunk === "string" ? chunk : state.decoder.write(chunk);
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
      this.append(state, text.slice(start, end));
      this.push(this.takeLine(state));
      start = end + 1;
    }
    if (start < text.length) this.append(state, start === 0 ? text : text.slice(start));
  }

  /** Flushes unfinished lines, as when the engine exits. */
  end(): void {
    for (const state of this.pending.values()) {
      const rest = state.decoder.end();
      if (rest !== "") this.append(state, rest);
      if (state.head !== null || state.text !== "") this.push(this.takeLine(state));
    }
  }

  /** The kept lines, oldest first, with the streams' unfinished lines last. */
  snapshot(): string[] {
    const kept = this.lines.slice(this.head);
    for (const state of this.pending.values()) {
      if (state.head !== null || state.text !== "") kept.push(this.assemble(state));
    }
    return kept;
  }

  private stateOf(stream: string): PendingLine {
    let state = this.pending.get(stream);
    if (!state) {
      state = { decoder: new StringDecoder("utf8"), text: "", head: null, tail: "", cut: 0 };
      this.pending.set(stream, state);
    }
    return state;
  }

  private append(state: PendingLine, piece: string): void {
    if (piece === "") return;
    if (state.head === null) {
      state.text += piece;
      if (state.text.length <= this.limits.maxLineChars) return;
      let split = this.headChars;
      // Never leave half a surrogate pair at the end of the head.
      if (isHighSurrogate(state.text.charCodeAt(split - 1))) split--;
      state.head = state.text.slice(0, split);
      state.tail = state.text.slice(split);
      state.text = "";
    } else {
      state.tail += piece;
    }
    if (state.tail.length > 2 * this.tailChars) {
      const kept = state.tail.slice(-this.tailChars);
      state.cut += state.tail.length - kept.length;
      state.tail = kept;
    }
  }

  /** The line as it stands: whole, or its head, the count of characters cut, and its newest characters. */
  private assemble(state: PendingLine): string {
    if (state.head === null) return state.text;
    let tail = state.tail.length > this.tailChars ? state.tail.slice(-this.tailChars) : state.tail;
    let cut = state.cut + state.tail.length - tail.length;
    if (tail.length > 0 && isLowSurrogate(tail.charCodeAt(0))) {
      tail = tail.slice(1);
      cut++;
    }
    return `${state.head}[… ${cut} characters cut …]${tail}`;
  }

  private takeLine(state: PendingLine): string {
    const line = this.assemble(state);
    state.text = "";
    state.head = null;
    state.tail = "";
    state.cut = 0;
    return line.endsWith("\r") ? line.slice(0, -1) : line;
  }

  private push(line: string): void {
    this.onLine?.(line);
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line) + 1;
    while (
      this.lines.length - this.head > this.limits.maxLines ||
      (this.bytes > this.limits.maxBytes && this.lines.length - this.head > 1)
    ) {
      const dropped = this.lines[this.head] ?? "";
      this.bytes -= Buffer.byteLength(dropped) + 1;
      // Released now, not at the next compaction: a dropped slot must not hold a long line.
      this.lines[this.head] = "";
      this.head++;
    }
    // Compact now and then so dropped lines are freed without shifting the array on every line.
    if (this.head > 4_096 && this.head * 2 > this.lines.length) {
      this.lines.splice(0, this.head);
      this.head = 0;
    }
  }
}
