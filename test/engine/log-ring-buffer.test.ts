import { describe, expect, it } from "vitest";
import { LogRingBuffer } from "../../src/engine/log-ring-buffer.js";

describe("LogRingBuffer", () => {
  it("joins lines split across chunks, per stream, and keeps unfinished lines last", () => {
    const log = new LogRingBuffer();
    log.write("stdout", "loading wei");
    log.write("stderr", "Traceback (most recent call last):\n  File");
    log.write("stdout", "ghts\r\nready\n");
    expect(log.snapshot()).toEqual(["Traceback (most recent call last):", "loading weights", "ready", "  File"]);
    log.end();
    expect(log.snapshot()).toEqual(["Traceback (most recent call last):", "loading weights", "ready", "  File"]);
  });

  it("decodes a UTF-8 character split between chunks", () => {
    const log = new LogRingBuffer();
    const bytes = Buffer.from("progress █ done\n", "utf8");
    const split = bytes.indexOf(0x96);
    log.write("stdout", bytes.subarray(0, split));
    log.write("stdout", bytes.subarray(split));
    expect(log.snapshot()).toEqual(["progress █ done"]);
  });

  it("keeps only the newest lines by count and by size", () => {
    const byCount = new LogRingBuffer({ maxLines: 3, maxBytes: 1024 });
    for (let index = 0; index < 10_000; index++) byCount.write("stdout", `line ${index}\n`);
    expect(byCount.snapshot()).toEqual(["line 9997", "line 9998", "line 9999"]);

    const bySize = new LogRingBuffer({ maxLines: 1000, maxBytes: 100 });
    for (let index = 0; index < 50; index++) bySize.write("stdout", `${"x".repeat(29)}${index % 10}\n`);
    const kept = bySize.snapshot();
    expect(kept.length).toBe(3);
    expect(kept.at(-1)).toBe(`${"x".repeat(29)}9`);
  });

  it("bounds a line that never ends", () => {
    const log = new LogRingBuffer({ maxLines: 10, maxBytes: 1_000 });
    for (let index = 0; index < 100; index++) log.write("stdout", "\u001b[2K50%|█████     |".repeat(10));
    expect(log.snapshot()[0]?.length).toBeLessThanOrEqual(1_000);
  });
});
