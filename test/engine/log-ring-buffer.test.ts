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
});

describe("LogRingBuffer: lines that do not end", () => {
  const MiB = 1024 * 1024;

  it("joins a line split across chunks and a multibyte character, drops the \\r of \\r\\n, and keeps an unterminated last line", () => {
    const log = new LogRingBuffer({ maxLines: 2 });
    const euro = Buffer.from("€");
    log.write("stdout", Buffer.from("one\ntw"));
    log.write("stdout", Buffer.concat([Buffer.from("o "), euro.subarray(0, 1)]));
    log.write("stdout", Buffer.concat([euro.subarray(1), Buffer.from("\r\nthree\nfou")]));
    expect(log.snapshot()).toEqual(["two €", "three", "fou"]);
    log.end();
    expect(log.snapshot()).toEqual(["three", "fou"]);
  });

  it("takes 32 MiB without a newline with the partial line capped, its cut counted, and the lines before and after intact", () => {
    const log = new LogRingBuffer({ maxLineChars: 1_000 });
    log.write("stdout", "Capture cuda graph begin.\nTraceback (most recent call last):\n");
    const chunk = Buffer.alloc(64 * 1024, "x");
    let written = 0;
    while (written < 32 * MiB) {
      log.write("stdout", chunk);
      written += chunk.length;
      // The unfinished line never holds more than the cap, marker included, whatever came before.
      expect(log.snapshot().at(-1)?.length).toBeLessThanOrEqual(1_000);
    }
    log.write("stdout", "END\ntorch.OutOfMemoryError: CUDA out of memory.\n");
    const lines = log.snapshot();
    expect(lines.slice(0, 2)).toEqual(["Capture cuda graph begin.", "Traceback (most recent call last):"]);
    expect(lines.at(-1)).toBe("torch.OutOfMemoryError: CUDA out of memory.");
    const long = lines[2] ?? "";
    expect(long.length).toBeLessThanOrEqual(1_000);
    const cut = /^x{400,}\[… (\d+) characters cut …\]x{400,}END$/.exec(long);
    expect(cut, long.slice(0, 600)).not.toBeNull();
    // Every character is accounted for: the kept ones and the cut ones add up to what was written.
    expect(long.length - `[… ${cut?.[1]} characters cut …]`.length + Number(cut?.[1])).toBe(32 * MiB + 3);
  });

  it("takes a long line written one character at a time without re-reading what it holds", () => {
    // Re-splitting the unfinished line on every write made this quadratic: 256 Ki writes of one
    // character each would not finish in the test's time.
    const log = new LogRingBuffer({ maxLineChars: 4_096 });
    for (let index = 0; index < 256 * 1024; index++) log.write("stderr", index % 100 === 99 ? "\r" : "#");
    log.write("stderr", "\n");
    const [line] = log.snapshot();
    expect(line?.length).toBeLessThanOrEqual(4_096);
    expect(line).toMatch(/^#{99}\r#{99}\r.*\[… \d+ characters cut …\].*#$/s);
  });

  it("never splits a surrogate pair where it cuts a line", () => {
    const log = new LogRingBuffer({ maxLineChars: 64 });
    // One ASCII character at each end puts both cut points in the middle of a pair.
    log.write("stdout", `a${"😀".repeat(100)}b\n`);
    const [line] = log.snapshot();
    expect(line).toMatch(/^a(😀)+\[… \d+ characters cut …\](😀)+b$/u);
  });
});
