const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const DATA = [0x64, 0x61, 0x74, 0x61]; // "data"
const EVENT = [0x65, 0x76, 0x65, 0x6e, 0x74]; // "event"

function isField(line: Uint8Array, nameEnd: number, name: readonly number[]): boolean {
  if (nameEnd !== name.length) return false;
  for (let index = 0; index < nameEnd; index++) if (line[index] !== name[index]) return false;
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
  private readonly decoder = new TextDecoder("utf-8");
  private carry: Uint8Array | null = null;
  private skipLeadingLf = false;
  private data = "";
  private hasData = false;
  private eventName = "";
  private firstLine = true;

  constructor(private readonly onEvent: SseEventHandler) {}

  feed(bytes: Uint8Array): void {
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
        this.processLine(concatBytes(this.carry, bytes.subarray(start, index)));
        this.carry = null;
      } else {
        this.processLine(bytes.subarray(start, index));
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
      const rest = bytes.slice(start);
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

  private processLine(raw: Uint8Array): void {
    let line = raw;
    if (this.firstLine) {
      this.firstLine = false;
      if (line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
    }
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    if (line[0] === COLON) return;
    // Field names are ASCII: compare bytes and decode only the value, one string per line.
    const colon = line.indexOf(COLON);
    const nameEnd = colon === -1 ? line.length : colon;
    let valueStart = colon === -1 ? line.length : colon + 1;
    if (line[valueStart] === SPACE) valueStart++;
    if (isField(line, nameEnd, DATA)) {
      const value = valueStart < line.length ? this.decoder.decode(line.subarray(valueStart)) : "";
      if (this.hasData) this.data += `\n${value}`;
      else {
        this.data = value;
        this.hasData = true;
      }
    } else if (isField(line, nameEnd, EVENT)) {
      this.eventName = this.decoder.decode(line.subarray(valueStart));
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

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}
