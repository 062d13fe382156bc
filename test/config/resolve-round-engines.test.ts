import { describe, expect, it } from "vitest";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import { resolveRoundEngines } from "../../src/config/resolve-round-engines.js";

const BENCH = { prompts: "/p.jsonl", maxTokens: 8, requestIntervalMs: 0, contextLimit: 64, tolerance: 0.9 };

function processConfig(baseline: Record<string, unknown>, candidate: Record<string, unknown>) {
  return parseRoundConfig({
    engine: "sglang",
    runtime: "process",
    port: 30000,
    baseline: { command: ["./serve.sh", "{port}"], ...baseline },
    candidate,
    bench: BENCH,
    gate: { minRoundScore: 1 },
  });
}

function dockerConfig(baseline: Record<string, unknown>, candidate: Record<string, unknown>) {
  return parseRoundConfig({
    engine: "vllm",
    runtime: "docker",
    port: 8000,
    baseline: { image: "vllm/vllm-openai:v0.11.0", ...baseline },
    candidate,
    bench: BENCH,
    gate: { minRoundScore: 1 },
  });
}

describe("resolveRoundEngines", () => {
  it("runs a process baseline without baseline.cwd in candidate.sourceDir, else in the config's folder", () => {
    expect(resolveRoundEngines(processConfig({}, { sourceDir: "/src/engine" }), "/cfg/round.yml").baseline.cwd).toBe("/src/engine");
    expect(resolveRoundEngines(processConfig({}, {}), "/cfg/round.yml").baseline.cwd).toBe("/cfg");
    expect(resolveRoundEngines(processConfig({ cwd: "/opt/bench" }, { sourceDir: "/src/engine" }), "/cfg/round.yml").baseline.cwd).toBe(
      "/opt/bench",
    );
  });

  it("gives the candidate the baseline's command, folder and variables where it names none, its own added to them", () => {
    const engines = resolveRoundEngines(
      processConfig({ env: { A: "1", B: "2" } }, { sourceDir: "/src/engine", env: { B: "3" } }),
      "/cfg/round.yml",
    );
    expect(engines.candidate).toEqual({ command: ["./serve.sh", "{port}"], cwd: "/src/engine", env: { A: "1", B: "3" } });
    const own = resolveRoundEngines(processConfig({}, { command: ["./fast.sh"], cwd: "/opt" }), "/cfg/round.yml");
    expect(own.candidate).toMatchObject({ command: ["./fast.sh"], cwd: "/opt" });
  });

  it(
    "keeps a container's folder inside the image: the image's WORKDIR unless a cwd is set, the candidate's the baseline's unless it " +
      "has its own",
    () => {
      expect(resolveRoundEngines(dockerConfig({}, {}), "/cfg/round.yml").baseline).toEqual({ command: null, cwd: null, env: {} });
      expect(resolveRoundEngines(dockerConfig({ cwd: "/vllm-workspace" }, {}), "/cfg/round.yml").candidate.cwd).toBe("/vllm-workspace");
      expect(resolveRoundEngines(dockerConfig({ cwd: "/vllm-workspace" }, { cwd: "/opt" }), "/cfg/round.yml").candidate.cwd).toBe("/opt");
    },
  );

  it("leaves a process round's folders relative to the worktree when it scores commits", () => {
    expect(resolveRoundEngines(processConfig({}, {}), "/cfg/round.yml", { commits: true }).baseline.cwd).toBeNull();
    expect(resolveRoundEngines(processConfig({ cwd: "python" }, {}), "/cfg/round.yml", { commits: true }).candidate.cwd).toBe("python");
  });
});
