import { readFile, readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cardOutputs } from "../../action/card-outputs.js";
import { INPUTS } from "../../action/input-helper.js";
import { watchOutputs } from "../../action/run-watch-mode.js";
import { startWatchState } from "../../src/watch/watch-state.js";
import { cardFor, recordRound } from "../shard/synthetic-round.js";

const root = resolve(import.meta.dirname, "../..");

interface ActionYml {
  runs: { using: string; main: string; post: string; "post-if": string };
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string }>;
  branding: { icon: string; color: string };
}

interface Workflow {
  jobs: Record<string, { steps: Array<{ uses?: string; run?: string; with?: Record<string, unknown> }> }>;
}

describe("action.yml", () => {
  it("declares exactly the inputs the action reads and the outputs it sets, each described", async () => {
    const action = parse(await readFile(join(root, "action.yml"), "utf8")) as ActionYml;
    expect(Object.keys(action.inputs).sort()).toEqual(Object.values(INPUTS).sort());
    const recorded = recordRound(3);
    const outputs = cardOutputs({ card: cardFor(recorded, recorded.promptIds), jsonPath: "a.json", markdownPath: "a.md", markdown: "" });
    const watched = watchOutputs({
      run: {
        base: { good: "a", from: "state", because: "" },
        head: "b",
        card: null,
        judgement: null,
        change: null,
        state: startWatchState("c".repeat(40), "", new Date()),
        bisection: null,
      },
      maxDrift: 0.97,
      card: null,
      watchPath: "watch.json",
      statePath: "state.json",
      summary: "",
    });
    expect(Object.keys(action.outputs).sort()).toEqual([...new Set([...Object.keys(outputs), ...Object.keys(watched)])].sort());
    for (const entry of [...Object.values(action.inputs), ...Object.values(action.outputs)])
      expect(entry.description.length).toBeGreaterThan(20);
    expect(action.runs).toEqual({ using: "node24", main: "dist/index.js", post: "dist/post.js", "post-if": "always()" });
    expect(action.inputs["github-token"]?.default).toBe("${{ github.token }}");
    expect(action.branding.icon).not.toBe("");
  });

  it("is used by the example workflows with declared inputs only", async () => {
    const action = parse(await readFile(join(root, "action.yml"), "utf8")) as ActionYml;
    const folder = join(root, "examples", "workflows");
    const files = (await readdir(folder)).filter((file) => file.endsWith(".yml"));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const workflow = parse(await readFile(join(folder, file), "utf8")) as Workflow;
      const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
      const uses = steps.filter((step) => step.uses?.startsWith("OWNER/speedgate@"));
      // Every example uses the action (the watch on main also runs the CLI's speedgate bisect for a range given by hand).
      const runsCli = steps.some((step) => step.run?.includes("github:OWNER/speedgate#"));
      expect(uses.length > 0 || runsCli, `${file} uses neither the action nor the CLI`).toBe(true);
      for (const step of uses) {
        for (const name of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs), `${file}: ${name}`).toContain(name);
      }
    }
  });
});
