const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const DATA = [0x64, 0x61, 0x74, 0x61]; // "data"
const EVENT = [0x65, 0x76, 0x65, 0x6e, 0x74]; // "event"

function isField(bytes: Buffer, from: number, to: number, name: readonly number[]): boolean {
  if (to - from !== name.length) return false;
  for (let index = 0; index < name.length; index++) if (bytes[from + index] !== name[index]) return false;
  return true;
}

/** Called once per dispatched event; `event` is the `event:` field, "message" when absent. */
export type SseEventHandler = (data: string, event: string) => void;

/**
 * Incremental Server-Sent Events parser that works on bytes, so a packet boundary can fall anywhere,
 * also inside a multi-byte UTF-8 character: lines are cut at ASCII CR/LF bytes, which never occur
 * inside a multi-byte sequence, and only whole lines are decoded.
 *
 * Follows the WHATWG event-stream rules that matter for OpenAI-style streams: `data:` lines join with
 * "\n", one leading space after the colon is dropped, `:` lines are comments, CRLF, CR and LF all end
 * a line, and an event is dispatched on a blank line. An event cut off by the end of the stream is
 * not dispatched (reported by `end()` instead).
 */
export class SseParser {
  private carry: Buffer | null = null;
  private skipLeadingLf = false;
  private data = "";
  private hasData = false;
  private eventName = "";
  private firstLine = true;

  constructor(private readonly onEvent: SseEventHandler) {}

  feed(input: Uint8Array): void {
    // Buffer's own UTF-8 slicing decodes a line without a view object per line (undici hands over Buffers already).
    const bytes = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    let start = 0;
    const length = bytes.length;
    if (this.skipLeadingLf && length > 0) {
      this.skipLeadingLf = false;
      if (bytes[0] === LF) start = 1;
    }
    for (let index = start; index < length; index++) {
      const byte = bytes[index];
      if (byte !== LF && byte !== CR) continue;
      if (this.carry) {
        const joined = concatBytes(this.carry, bytes.subarray(start, index));
        this.carry = null;
        this.processLine(joined, 0, joined.length);
      } else {
        this.processLine(bytes, start, index);
      }
      if (byte === CR) {
        if (index + 1 < length) {
          if (bytes[index + 1] === LF) index++;
        } else {
          this.skipLeadingLf = true;
        }
      }
      start = index + 1;
    }
    if (start < length) {
      // Copy: the caller may reuse its buffer once feed returns.
      const rest = Buffer.from(bytes.subarray(start));
      this.carry = this.carry ? concatBytes(this.carry, rest) : rest;
    }
  }

  /** Ends the stream; returns true when an incomplete event (or line) was left undelivered. */
  end(): boolean {
    const leftover = this.hasData || (this.carry !== null && this.carry.length > 0);
    this.carry = null;
    this.data = "";
    this.hasData = false;
    this.eventName = "";
    return leftover;
  }

  /** Handles bytes[from, to) as one line; offsets instead of a view keep the hot path allocation-free. */
  private processLine(bytes: Buffer, from: number, to: number): void {
    let lineStart = from;
    if (this.firstLine) {
      this.firstLine = false;
      if (to - from >= 3 && bytes[from] === 0xef && bytes[from + 1] === 0xbb && bytes[from + 2] === 0xbf) lineStart += 3;
    }
    if (lineStart === to) {
      this.dispatch();
      return;
    }
    if (bytes[lineStart] === COLON) return;
    // Field names are ASCII: compare bytes and decode only the value, one string per line.
    let nameEnd = lineStart;
    while (nameEnd < to && bytes[nameEnd] !== COLON) nameEnd++;
    let valueStart = nameEnd < to ? nameEnd + 1 : to;
    if (valueStart < to && bytes[valueStart] === SPACE) valueStart++;
    if (isField(bytes, lineStart, nameEnd, DATA)) {
      const value = valueStart < to ? bytes.toString("utf8", valueStart, to) : "";
      if (this.hasData) this.data += `\n${value}`;
      else {
        this.data = value;
        this.hasData = true;
      }
    } else if (isField(bytes, lineStart, nameEnd, EVENT)) {
      this.eventName = valueStart < to ? bytes.toString("utf8", valueStart, to) : "";
    }
    // "id" and "retry" do not matter for a single completion stream.
  }

  private dispatch(): void {
    if (!this.hasData) {
      this.eventName = "";
      return;
    }
    const data = this.data;
    const event = this.eventName || "message";
    this.data = "";
    this.hasData = false;
    this.eventName = "";
    this.onEvent(data, event);
  }
}

function concatBytes(a: Buffer, b: Buffer): Buffer {
  return Buffer.concat([a, b], a.length + b.length);
}
