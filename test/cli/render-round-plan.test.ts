import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { renderRoundPlan } from "../../src/cli/render-round-plan.js";
import { checkRound } from "../../src/config/load-round-config.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { concatPatterns } from "../support/concat-patterns.js";

describe("renderRoundPlan", () => {
  it("lists the scenarios in the order one engine start serves them, each with its prompts, load, runs and bar", async () => {
    const dir = await makeTempDir("speedgate-plan-");
    await writeFile(join(dir, "chat.jsonl"), '{"id":"c1","prompt":"hi"}\n{"id":"c2","prompt":"hello"}\n');
    const config = {
      engine: "sglang",
      runtime: "process",
      port: 30000,
      baseline: { command: ["serve"] },
      bench: { prompts: "chat.jsonl", maxTokens: 64, requestIntervalMs: 250, contextLimit: 4096, tolerance: 0.9, runs: 3 },
      gate: { minRoundScore: 1, maxRegression: 0.97 },
      scenarios: [
        { name: "chat-rate4", arrival: "poisson" },
        { name: "decode-c8", concurrency: 8, runs: 1, gate: { minRoundScore: 0.98 } },
        { name: "private", prompts: "/runner/only.jsonl" },
      ],
    };
    await writeFile(join(dir, "round.yml"), stringify(config));
    const plan = renderRoundPlan(await checkRound(join(dir, "round.yml")));
    expect(plan).toContain("gate.maxRegression: no scenario's interval may lie wholly below 0.97×");
    expect(plan).toContain("Scenarios (each engine start serves all 3, in this order)");
    expect(plan).toContain("  chat-rate4: 2 from ");
    expect(plan).toMatch(
      concatPatterns(
        /chat-rate4: 2 from \S+chat\.jsonl, up to 64 tokens each, one every 250 ms on average \(Poisson\), 0 warm-up; 3 runs; gate at /,
        /least 1×/,
      ),
    );
    expect(plan).toMatch(/decode-c8: 2 from \S+, up to 64 tokens each, concurrency 8, 0 warm-up; 1 run; gate at least 0\.98×/);
    expect(plan).toContain("private: /runner/only.jsonl (on the runner); 3 runs");
    // Both send bench.prompts to one engine start; the prompts not found here are not compared.
    expect(plan).toMatch(/note: scenarios chat-rate4 and decode-c8 send the same prompts, .*prefix cache/);
    // Three runs and one: nothing about two.
    expect(plan).not.toContain("runs is 2");
  });

  it("says, under Notes, which setting asks for two runs and why that interval seldom gives a verdict", async () => {
    const dir = await makeTempDir("speedgate-plan-");
    await writeFile(join(dir, "chat.jsonl"), '{"id":"c1","prompt":"hi"}\n');
    const bench = { prompts: "chat.jsonl", maxTokens: 64, requestIntervalMs: 250, contextLimit: 4096, tolerance: 0.9 };
    const plain = {
      engine: "sglang",
      runtime: "process",
      port: 30000,
      baseline: { command: ["serve"] },
      bench: { ...bench, runs: 2 },
      gate: { minRoundScore: 1 },
    };
    await writeFile(join(dir, "plain.yml"), stringify(plain));
    const plan = renderRoundPlan(await checkRound(join(dir, "plain.yml")));
    expect(plan.slice(plan.indexOf("\nNotes\n"))).toContain(
      "  bench.runs is 2: with two runs the interval pushes each run's level out 9.2× its difference from the other",
    );
    // Under a calibrated noise floor the interval does not decide: no note.
    await writeFile(join(dir, "score.yml"), stringify({ ...plain, gate: { minRoundScore: 1, use: "round-score" } }));
    expect(renderRoundPlan(await checkRound(join(dir, "score.yml")))).not.toContain("runs is 2");
    // With scenarios: the one whose own runs say 2, named; bench's 3 gives none.
    const scenarios = {
      ...plain,
      bench: { ...bench, runs: 3 },
      scenarios: [{ name: "chat" }, { name: "decode-c1", concurrency: 1, runs: 2 }],
    };
    await writeFile(join(dir, "scenarios.yml"), stringify(scenarios));
    const notes = renderRoundPlan(await checkRound(join(dir, "scenarios.yml")))
      .split("\n")
      .filter((line) => line.includes("runs") && line.includes(" is 2: "));
    expect(notes).toEqual([expect.stringMatching(/^ {2}scenarios\[1\]\.runs \(decode-c1\) is 2: /)]);
  });

  it("says each scenario sends its own prompts when bench names none, with no note of a missing prompt set", async () => {
    const dir = await makeTempDir("speedgate-plan-");
    await writeFile(join(dir, "chat.jsonl"), '{"id":"c1","prompt":"hi"}\n{"id":"c2","prompt":"hello"}\n{"id":"c3","prompt":"hey"}\n');
    const config = {
      engine: "sglang",
      runtime: "process",
      port: 30000,
      baseline: { command: ["serve"] },
      bench: { maxTokens: 64, requestIntervalMs: 250, contextLimit: 4096, tolerance: 0.9, runs: 2 },
      gate: { minRoundScore: 1 },
      scenarios: [{ name: "chat", prompts: "chat.jsonl" }],
    };
    await writeFile(join(dir, "round.yml"), stringify(config));
    const plan = renderRoundPlan(await checkRound(join(dir, "round.yml")));
    expect(plan).toContain("  prompts: each scenario sends its own\n");
    expect(plan).toMatch(/chat: 3 from \S+chat\.jsonl, up to 64 tokens each/);
    expect(plan).not.toContain("the prompts file has no prompts");
  });
});
