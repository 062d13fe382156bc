import { describe, expect, it } from "vitest";
import { DockerStreamDemuxer, type StreamName } from "../../src/docker/demux-docker-stream.js";

function frame(type: number, text: string): Buffer {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header.writeUInt8(type, 0);
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

function collect(chunks: Buffer[]): Array<[StreamName, string]> {
  const frames: Array<[StreamName, string]> = [];
  const demuxer = new DockerStreamDemuxer((stream, payload) => frames.push([stream, payload.toString()]));
  for (const chunk of chunks) demuxer.push(chunk);
  return frames;
}

describe("DockerStreamDemuxer", () => {
  it("strips the 8-byte headers and tells stdout from stderr", () => {
    expect(collect([Buffer.concat([frame(1, "loading\n"), frame(2, "Traceback\n")])])).toEqual([
      ["stdout", "loading\n"],
      ["stderr", "Traceback\n"],
    ]);
  });

  it("reassembles frames split anywhere, even inside a header", () => {
    const bytes = Buffer.concat([frame(1, "first line\n"), frame(2, "second line\n")]);
    const chunks = [bytes.subarray(0, 3), bytes.subarray(3, 12), bytes.subarray(12, 20), bytes.subarray(20)];
    expect(collect(chunks)).toEqual([
      ["stdout", "first line\n"],
      ["stderr", "second line\n"],
    ]);
  });

  it("passes a TTY container's raw output through unchanged", () => {
    expect(collect([Buffer.from("plain output\n"), Buffer.from("more\n")])).toEqual([
      ["stdout", "plain output\n"],
      ["stdout", "more\n"],
    ]);
  });
});
