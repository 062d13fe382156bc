import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEFAULT_CALIBRATION_FILE } from "../../src/cli/commands/calibrate-command.js";
import { runCli } from "../cli/support/sim-round.js";
import { validateRequest } from "../../harness/fake-github/openapi-description.js";

/*
 * docs/score-your-engine.md, "Score your engine's pull requests", takes a repository from nothing to a
 * required check and ends with examples/engine-repository/.github/. What it shows must be what that
 * folder holds, its commands must run, and the GitHub API calls it gives must be ones GitHub's
 * published description accepts.
 */

const root = fileURLToPath(new URL("../../", import.meta.url));
const example = join(root, "examples", "engine-repository");
const guide = await readFile(join(root, "docs", "score-your-engine.md"), "utf8");

/** The fenced blocks of one language, in order; a block inside a list item loses its indentation. */
function blocks(language: string): string[] {
  return [...guide.matchAll(new RegExp(`^( *)\`\`\`${language}\\n([\\s\\S]*?)^\\1\`\`\``, "gm"))].map((match) =>
    (match[2] ?? "").replace(new RegExp(`^${match[1] ?? ""}`, "gm"), ""),
  );
}

/** Whether everything `part` says is also said by `whole` (objects by key, lists item by item, in order). */
function contained(part: unknown, whole: unknown, at = "(root)"): string[] {
  if (Array.isArray(part)) {
    if (!Array.isArray(whole)) return [`${at}: a list in the guide, ${JSON.stringify(whole)} in the example`];
    if (part.length !== whole.length) return [`${at}: ${part.length} items in the guide, ${whole.length} in the example`];
    return part.flatMap((item, index) => contained(item, whole[index], `${at}[${index}]`));
  }
  if (part !== null && typeof part === "object") {
    if (whole === null || typeof whole !== "object") return [`${at}: an object in the guide, ${JSON.stringify(whole)} in the example`];
    return Object.entries(part).flatMap(([key, value]) => contained(value, (whole as Record<string, unknown>)[key], `${at}.${key}`));
  }
  return part === whole ? [] : [`${at}: ${JSON.stringify(part)} in the guide, ${JSON.stringify(whole)} in the example`];
}

const exampleYaml = async (path: string): Promise<unknown> => parse(await readFile(join(example, ".github", path), "utf8")) as unknown;

describe("docs/score-your-engine.md", () => {
  it(
    "goes from nothing to a required check in numbered steps: runner, image, round config, calibration, workflow, app, branch " +
      "protection",
    () => {
      const steps = [...guide.matchAll(/^## (\d+)\. (.+)$/gm)].map((match) => `${match[1]}. ${match[2]}`);
      expect(steps.map((step) => step.split(".")[0])).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
      const topics = [/runner/i, /image/i, /round config/i, /calibrat/i, /workflow/i, /app/i, /branch protection.*app/i];
      topics.forEach((topic, index) => expect(steps[index]).toMatch(topic));
    },
  );

  it("shows the example's round config, workflow and app settings as they are", async () => {
    const [round, gate, workflow, app] = blocks("yaml").map((text) => parse(text) as Record<string, unknown>);
    expect(contained(round, await exampleYaml("speedgate/round.yaml"))).toEqual([]);
    expect(contained(workflow, await exampleYaml("workflows/speedgate.yml"))).toEqual([]);
    expect(contained(app, await exampleYaml("speedgate-app.yml"))).toEqual([]);
    // Step 4 adds the calibration the runner made, under the name `speedgate calibrate` gives it.
    const roundGate = ((await exampleYaml("speedgate/round.yaml")) as { gate: Record<string, unknown> }).gate;
    expect(gate).toEqual({ gate: { ...roundGate, calibration: DEFAULT_CALIBRATION_FILE } });
  });

  it("gives `speedgate run --check` commands that pass on the example repository", async () => {
    const commands = blocks("sh")
      .flatMap((text) => text.split("\n"))
      .filter((line) => /^speedgate run .*--check$/.test(line));
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      const args = command
        .split(/\s+/)
        .slice(1)
        .map((arg) => (arg.startsWith(".github/") ? join(example, arg) : arg));
      const { code, stdout } = await runCli(args);
      expect({ command, code }).toEqual({ command, code: 0 });
      expect(stdout).toContain("is valid; nothing was started.");
    }
  });

  it("gives GitHub API calls for the branch protection that GitHub's OpenAPI description accepts", () => {
    const calls = [...guide.matchAll(/gh api (?:--method (\w+) )?(\S+) --input - <<'EOF'\n([\s\S]*?)\nEOF/g)];
    expect(calls.length).toBe(2);
    for (const [, method = "GET", path = "", body = ""] of calls) {
      const result = validateRequest(method, `/${path.replace(/^\//, "")}`, new URLSearchParams(), JSON.parse(body) as unknown);
      expect(result, `${method} ${path}`).toMatchObject({ ok: true });
    }
    // The reads that verify the pin, and the status that must not satisfy it.
    const reads = [...guide.matchAll(/`gh api (\S+) (?:--jq|-f)/g)].map((match) => match[1] ?? "");
    expect(reads.length).toBeGreaterThanOrEqual(3);
    for (const path of reads) {
      const method = path.includes("/statuses/") ? "POST" : "GET";
      const concrete = `/${path.replace(/^\//, "").replace("<slug>", "speedgate").replace("<head sha>", "a".repeat(40))}`;
      const body = method === "POST" ? { state: "success", context: "speedgate" } : undefined;
      expect(validateRequest(method, concrete, new URLSearchParams(), body), `${method} ${concrete}`).toMatchObject({ ok: true });
    }
  });

  it("pins the check to the app in both the ruleset and the classic rule, and says how to see that it is pinned", () => {
    const calls = [...guide.matchAll(/<<'EOF'\n([\s\S]*?)\nEOF/g)].map((match) => JSON.stringify(JSON.parse(match[1] ?? "")));
    expect(calls[0]).toContain('"required_status_checks":[{"context":"speedgate","integration_id":123456}]');
    expect(calls[1]).toContain('"checks":[{"context":"speedgate","app_id":123456}]');
    expect(guide).toContain("No id (or `-1`, or `null`) means any source may satisfy it.");
  });
});
