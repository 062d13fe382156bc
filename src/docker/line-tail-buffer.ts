/**
 * Keeps the last `limit` complete lines of a byte stream, plus the unfinished line, so a log
 * tail is always at hand without holding an engine's whole output in memory.
 */
export class LineTailBuffer {
  private readonly lines: string[] = [];
  private partial = "";
  private readonly decoder = new TextDecoder("utf-8");

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    const text = this.partial + this.decoder.decode(chunk, { stream: true });
    const pieces = text.split(/\r?\n/);
    this.partial = pieces.pop() ?? "";
    for (const line of pieces) this.add(line);
  }

  /** Ends the stream: an unterminated last line still counts. */
  flush(): void {
    const rest = this.partial + this.decoder.decode();
    this.partial = "";
    if (rest.length > 0) this.add(rest);
  }

  tail(): string[] {
    return this.partial.length > 0 ? [...this.lines, this.partial] : [...this.lines];
  }

  private add(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.limit) this.lines.splice(0, this.lines.length - this.limit);
  }
}
