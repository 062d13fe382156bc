import { describe, expect, it } from "vitest";
import { createProgressRenderer } from "../../src/cli/render-round-progress.js";

function capture(isTTY: boolean) {
  const writes: string[] = [];
  const renderer = createProgressRenderer({ isTTY, columns: 80, write: (text: string) => writes.push(text) });
  return { writes, renderer };
}

describe("round progress on stderr", () => {
  it("prints plain lines without carriage returns off a terminal, a line per tenth of the prompts", () => {
    const { writes, renderer } = capture(false);
    renderer.onProgress({ type: "starting", role: "baseline" });
    renderer.onProgress({ type: "healthy", role: "baseline", afterMs: 12_345 });
    for (let done = 1; done <= 100; done++)
      renderer.onProgress({ type: "benchmark", role: "baseline", done, total: 100, failed: done > 50 ? 1 : 0 });
    renderer.finish();
    const text = writes.join("");
    expect(text).not.toContain("\r");
    expect(text).toContain("baseline: engine healthy after 12.3 s\n");
    expect(text.match(/prompts done/g)?.length).toBe(10);
    expect(text).toContain("baseline: 100/100 prompts done (1 failed)\n");
  });

  it("names the scenario each benchmark line is for, counting each scenario's tenths apart", () => {
    const { writes, renderer } = capture(false);
    for (const scenario of ["chat-rate4", "decode-c1"]) {
      for (let done = 0; done <= 10; done++)
        renderer.onProgress({ type: "benchmark", role: "baseline", scenario, done, total: 10, failed: 0, run: 1, runs: 2 });
    }
    const text = writes.join("");
    expect(text.match(/baseline \(run 1 of 2\), chat-rate4: \d+\/10 prompts done/g)?.length).toBe(10);
    expect(text.match(/baseline \(run 1 of 2\), decode-c1: \d+\/10 prompts done/g)?.length).toBe(10);
  });

  it("redraws one bar on a terminal and clears it before the next line", () => {
    const { writes, renderer } = capture(true);
    renderer.onProgress({ type: "benchmark", role: "candidate", done: 3, total: 10, failed: 0 });
    renderer.onProgress({ type: "benchmark", role: "candidate", done: 4, total: 10, failed: 0 });
    renderer.onProgress({ type: "stopped", role: "candidate" });
    expect(writes[0]?.startsWith("\r\u001b[K")).toBe(true);
    expect(writes[0]?.slice(4)).toMatch(/^candidate: \[█+░+\] 3\/10 prompts$/);
    expect(writes.at(-1)).toBe("candidate: engine stopped\n");
    expect(writes.at(-2)).toBe("\r\u001b[K");
  });
});

describe("round progress on a terminal that reports no width", () => {
  it("still draws the whole bar, and leaves a line when the engine is done", () => {
    const writes: string[] = [];
    const renderer = createProgressRenderer({ isTTY: true, columns: 0, write: (text: string) => writes.push(text) });
    renderer.onProgress({ type: "benchmark", role: "baseline", done: 1, total: 2, failed: 0 });
    renderer.onProgress({ type: "benchmark", role: "baseline", done: 2, total: 2, failed: 0 });
    expect(writes[0]).toContain("1/2 prompts");
    expect(writes.at(-1)).toBe("baseline: 2/2 prompts done\n");
  });
});
