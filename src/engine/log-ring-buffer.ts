import { StringDecoder } from "node:string_decoder";

export interface LogRingBufferLimits {
  maxLines: number;
  maxBytes: number;
}

export const DEFAULT_LOG_LIMITS: LogRingBufferLimits = { maxLines: 2_000, maxBytes: 1024 * 1024 };

/**
 * Keeps the newest lines an engine printed, bounded by count and size, so an engine that logs for
 * hours cannot grow speedgate's memory. Each stream keeps its own unfinished line (stdout and stderr
 * interleave by whole lines) and its own decoder (a UTF-8 character may be split across chunks).
 */
export class LogRingBuffer {
  private readonly lines: string[] = [];
  private head = 0;
  private bytes = 0;
  private readonly pending = new Map<string, { decoder: StringDecoder; partial: string }>();

  constructor(
    private readonly limits: LogRingBufferLimits = DEFAULT_LOG_LIMITS,
    /** Called with each complete line as it arrives (progress output, tests waiting for a line). */
    private readonly onLine?: (line: string) => void,
  ) {}

  /** Appends raw output of one stream (such as "stdout"); lines end at "\n". */
  write(stream: string, chunk: Buffer | string): void {
    let state = this.pending.get(stream);
    if (!state) {
      state = { decoder: new StringDecoder("utf8"), partial: "" };
      this.pending.set(stream, state);
    }
    const text = state.partial + (typeof chunk === "string" ? chunk : state.decoder.write(chunk));
    const parts = text.split("\n");
    state.partial = parts.pop() ?? "";
    for (const line of parts) this.push(line.endsWith("\r") ? line.slice(0, -1) : line);
    // A line that never ends (a progress bar without newlines) must not grow without bound either.
    if (state.partial.length > this.limits.maxBytes) state.partial = state.partial.slice(-this.limits.maxBytes);
  }

  /** Flushes unfinished lines, as when the engine exits. */
  end(): void {
    for (const state of this.pending.values()) {
      const rest = state.partial + state.decoder.end();
      state.partial = "";
      if (rest !== "") this.push(rest);
    }
  }

  /** The kept lines, oldest first, with the streams' unfinished lines last. */
  snapshot(): string[] {
    const kept = this.lines.slice(this.head);
    for (const state of this.pending.values()) if (state.partial !== "") kept.push(state.partial);
    return kept;
  }

  private push(whole: string): void {
    const line = whole.length > this.limits.maxBytes ? whole.slice(0, this.limits.maxBytes) : whole;
    this.onLine?.(line);
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line) + 1;
    while (this.lines.length - this.head > this.limits.maxLines || (this.bytes > this.limits.maxBytes && this.lines.length - this.head > 1)) {
      const dropped = this.lines[this.head] ?? "";
      this.bytes -= Buffer.byteLength(dropped) + 1;
      this.head++;
    }
    // Compact now and then so dropped lines are freed without shifting the array on every line.
    if (this.head > 4_096 && this.head * 2 > this.lines.length) {
      this.lines.splice(0, this.head);
      this.head = 0;
    }
  }
}
