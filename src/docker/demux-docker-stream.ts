export type StreamName = "stdout" | "stderr";

const STREAM_NAMES: Record<number, StreamName> = { 0: "stdout", 1: "stdout", 2: "stderr" };

/**
 * Splits Docker's multiplexed log stream (no TTY): each frame is an 8-byte header (stream type,
 * three zero bytes, big-endian payload length) followed by the payload. Frames arrive split
 * across chunks and several per chunk, so the state carries over between calls.
 */
export class DockerStreamDemuxer {
  private pending: Buffer = Buffer.alloc(0);
  private raw = false;

  constructor(private readonly onFrame: (stream: StreamName, payload: Buffer) => void) {}

  push(chunk: Buffer): void {
    if (this.raw) {
      this.onFrame("stdout", chunk);
      return;
    }
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= 8) {
      const type = this.pending.readUInt8(0);
      const stream = STREAM_NAMES[type];
      if (!stream || this.pending.readUInt8(1) !== 0 || this.pending.readUInt16BE(2) !== 0) {
        // Not a frame header: the container runs with a TTY and the stream is raw output.
        this.raw = true;
        const rest = this.pending;
        this.pending = Buffer.alloc(0);
        this.onFrame("stdout", rest);
        return;
      }
      const length = this.pending.readUInt32BE(4);
      if (this.pending.length < 8 + length) return;
      this.onFrame(stream, this.pending.subarray(8, 8 + length));
      this.pending = this.pending.subarray(8 + length);
    }
  }
}
