import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli } from "./support/sim-round.js";

const rounds = fileURLToPath(new URL("../../examples/rounds/", import.meta.url));

interface SyntheticSpec {
  inputTokens: number;
  outputTokens: number;
  count: number;
  seed: number;
}

interface RawScenario {
  name: string;
  prompts?: string | { synthetic: SyntheticSpec };
  concurrency?: number;
  requestIntervalMs?: number;
}

async function readScenarios(file: string): Promise<{ scenarios: RawScenario[]; minPrompts: number }> {
  const raw = parse(await readFile(join(rounds, file), "utf8")) as { scenarios: RawScenario[]; gate: { minPrompts?: number } };
  return { scenarios: raw.scenarios, minPrompts: raw.gate.minPrompts ?? 10 };
}

function synthetic(scenario: RawScenario): SyntheticSpec | null {
  return typeof scenario.prompts === "object" ? scenario.prompts.synthetic : null;
}

describe("the shipped round configs with scenarios", () => {
  it.each([
    ["sglang-scenarios.yaml", ["chat-rate4", "chat-rate16", "decode-c1", "decode-c32"]],
    ["vllm-scenarios.yaml", ["chat-rate4", "chat-rate16", "decode-c1", "decode-c32"]],
    ["llama-cpp-scenarios.yaml", ["pp512", "tg128"]],
  ])("examples/rounds/%s passes --check and names every scenario", async (file, names) => {
    const result = await runCli(["run", "--config", join(rounds, file), "--check"]);
    expect(result.logger.lines.filter((line) => line.level === "error").map((line) => line.message)).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("is valid; nothing was started.");
    expect((await readScenarios(file)).scenarios.map((scenario) => scenario.name)).toEqual(names);
    for (const name of names) expect(result.stdout).toContain(name);
  });

  it.each(["sglang-scenarios.yaml", "vllm-scenarios.yaml", "llama-cpp-scenarios.yaml"])(
    "%s gives every synthetic scenario prompts of its own and enough of them for a verdict",
    async (file) => {
      const { scenarios, minPrompts } = await readScenarios(file);
      const specs = scenarios.map(synthetic).filter((spec): spec is SyntheticSpec => spec !== null);
      expect(specs.length).toBeGreaterThan(0);
      // One engine start serves every scenario: a seed used twice would send prompts the engine has cached.
      expect(new Set(specs.map((spec) => spec.seed)).size).toBe(specs.length);
      for (const spec of specs) expect(spec.count).toBeGreaterThanOrEqual(minPrompts);
    },
  );

  it("measures llama.cpp's prompt processing and generation apart, one request at a time, as llama-bench's pp and tg", async () => {
    const [pp, tg] = (await readScenarios("llama-cpp-scenarios.yaml")).scenarios.map((scenario) => ({
      scenario,
      spec: synthetic(scenario),
    }));
    expect(pp?.spec?.outputTokens).toBeLessThanOrEqual(16);
    expect(pp?.spec?.inputTokens).toBeGreaterThanOrEqual(512);
    expect(tg?.spec?.outputTokens).toBe(128);
    expect(tg?.spec?.inputTokens).toBeLessThan(128);
    expect([pp?.scenario.concurrency, tg?.scenario.concurrency]).toEqual([1, 1]);
  });
});
