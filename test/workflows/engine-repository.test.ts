import { existsSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { APP_CONFIG_PATH, LEGACY_APP_CONFIG_PATH } from "../../bot/read-repo-config.js";
import { parseRunTitle } from "../../src/github/dispatch-binding.js";
import { DEFAULT_REPO_CONFIG, parseRepoConfig } from "../../src/github/repo-config-schema.js";
import { runCli } from "../cli/support/sim-round.js";

/*
 * examples/engine-repository/.github/ is what docs/score-your-engine.md ends with: copied into an
 * engine's repository, the app, the workflow it dispatches and the round config fit together. Each
 * thing the app and the action expect of the others is checked here against the files themselves.
 */

const root = fileURLToPath(new URL("../../", import.meta.url));
const repository = join(root, "examples", "engine-repository");

interface Step {
  name?: string;
  uses?: string;
  with?: Record<string, string | boolean | number>;
}
interface Workflow {
  on: Record<string, { inputs?: Record<string, unknown> } | null>;
  "run-name"?: string;
  permissions?: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
}

const readYaml = async <T>(path: string): Promise<T> => parse(await readFile(path, "utf8")) as T;
const speedgateSteps = (workflow: Workflow): Step[] =>
  Object.values(workflow.jobs).flatMap((job) => job.steps.filter((step) => /\/speedgate@/.test(step.uses ?? "")));

describe("the example engine repository (examples/engine-repository/.github)", () => {
  it("holds the app's settings under their own name, the workflow the app dispatches, and the round config with its prompts", async () => {
    const files = (await readdir(join(repository, ".github"), { recursive: true })).sort();
    expect(files).toEqual(
      expect.arrayContaining(["speedgate-app.yml", "speedgate/prompts.jsonl", "speedgate/round.yaml", "workflows/speedgate.yml"]),
    );
    // The app's file is not the round config's namesake any more: no .github/speedgate.yml beside .github/speedgate/.
    expect(existsSync(join(repository, LEGACY_APP_CONFIG_PATH))).toBe(false);
  });

  it("has app settings the app accepts, naming a workflow that is there", async () => {
    const raw = await readYaml<unknown>(join(repository, APP_CONFIG_PATH));
    const result = parseRepoConfig(raw);
    // The example opts in to judging changed answers by the round's question set; everything else is the default.
    expect(result).toEqual({ ok: true, config: { ...DEFAULT_REPO_CONFIG, gate: { ...DEFAULT_REPO_CONFIG.gate, answers: "quality" } } });
    if (!result.ok) return;
    expect(existsSync(join(repository, ".github", "workflows", result.config.workflow))).toBe(true);
  });

  it(
    "has the workflow the app dispatches: workflow_dispatch with pr and " + "sha, the run name the app reads, the artifact it downloads",
    async () => {
      const workflow = await readYaml<Workflow>(join(repository, ".github", "workflows", DEFAULT_REPO_CONFIG.workflow));
      expect(Object.keys(workflow.on)).toEqual(["workflow_dispatch"]);
      expect(Object.keys(workflow.on.workflow_dispatch?.inputs ?? {}).sort()).toEqual(["base", "pr", "sha"]);
      const sha = "c".repeat(40);
      expect(parseRunTitle((workflow["run-name"] ?? "").replace("${{ inputs.pr }}", "12").replace("${{ inputs.sha }}", sha))).toEqual({
        pullRequest: 12,
        headSha: sha,
      });
      // A job named speedgate would post a check run of the same name as the app's required one.
      expect(Object.keys(workflow.jobs)).not.toContain("speedgate");
      const uploads = Object.values(workflow.jobs).flatMap((job) =>
        job.steps.filter((step) => step.uses?.startsWith("actions/upload-artifact@")),
      );
      expect(uploads.map((step) => step.with?.name)).toEqual(["speedgate-scorecard"]);
      expect(workflow.permissions).toEqual({ contents: "read", "pull-requests": "read" });
    },
  );

  it("is the shipped fork-safe workflow and SGLang round, so the examples cannot drift apart", async () => {
    expect(await readFile(join(repository, ".github", "workflows", "speedgate.yml"), "utf8")).toBe(
      await readFile(join(root, "examples", "workflows", "speedgate-fork-safe.yml"), "utf8"),
    );
    expect(await readFile(join(repository, ".github", "speedgate", "round.yaml"), "utf8")).toBe(
      await readFile(join(root, "examples", "rounds", "sglang.yaml"), "utf8"),
    );
  });

  it("names a round config that passes speedgate run --check from the repository's root", async () => {
    const workflow = await readYaml<Workflow>(join(repository, ".github", "workflows", "speedgate.yml"));
    const configs = speedgateSteps(workflow).map((step) => String(step.with?.config));
    expect(configs).toEqual([".github/speedgate/round.yaml"]);
    const { code, stdout } = await runCli(["run", "--config", join(repository, configs[0] ?? ""), "--check"]);
    expect(code).toBe(0);
    expect(stdout).toContain("is valid; nothing was started.");
  });
});

describe("where every shipped workflow reads the round config from", () => {
  async function shippedWorkflows(): Promise<string[]> {
    const files: string[] = [];
    for (const dir of ["examples/workflows", "examples/engine-repository/.github/workflows"]) {
      for (const name of await readdir(join(root, dir))) if (/\.ya?ml$/.test(name)) files.push(join(dir, name));
    }
    return files;
  }

  it("checks out the base or default branch before a step that reads a round config, never the pull request", async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const file of await shippedWorkflows()) {
      const workflow = await readYaml<Workflow>(join(root, file));
      for (const [name, job] of Object.entries(workflow.jobs)) {
        const reads = job.steps.findIndex((step) => /\/speedgate@/.test(step.uses ?? "") && step.with?.config !== undefined);
        if (reads < 0) continue;
        checked += 1;
        const checkout = job.steps.slice(0, reads).find((step) => step.uses?.startsWith("actions/checkout@"));
        const ref = String(checkout?.with?.ref ?? "");
        // A pull_request run checks out the merge commit by default: the pull request's own round config.
        if (!/^\$\{\{ github\.event\.(pull_request\.base\.ref|repository\.default_branch) \}\}$/.test(ref))
          problems.push(`${file} job ${name}: checkout ref ${JSON.stringify(ref)}`);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(4);
    expect(problems).toEqual([]);
  });

  it("names config files inside .github/speedgate/, beside their prompts", async () => {
    for (const file of await shippedWorkflows()) {
      for (const step of speedgateSteps(await readYaml<Workflow>(join(root, file)))) {
        if (step.with?.config === undefined) continue;
        expect(dirname(String(step.with.config)), file).toBe(".github/speedgate");
      }
    }
  });
});
