import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { checkRound, loadRound } from "../../src/config/load-round-config.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { concatPatterns } from "../support/concat-patterns.js";

const PATCH = "--- a/profile.json\n+++ b/profile.json\n@@ -1 +1 @@\n-{}\n+{ }\n";
const PROMPTS = '{"id": "p1", "prompt": "hello"}\n';

/** A folder with the given files (a trailing slash makes a folder) and a round.yml for `config`. */
async function writeRound(config: Record<string, unknown>, files: Record<string, string> = {}): Promise<string> {
  const dir = await makeTempDir("speedgate-paths-");
  for (const [name, content] of Object.entries(files)) {
    if (name.endsWith("/")) await mkdir(join(dir, name), { recursive: true });
    else {
      await mkdir(join(dir, name, ".."), { recursive: true });
      await writeFile(join(dir, name), content);
    }
  }
  const path = join(dir, "round.yml");
  await writeFile(path, stringify(config));
  return path;
}

const bench = { prompts: "prompts.jsonl", maxTokens: 16, requestIntervalMs: 10, contextLimit: 1024, tolerance: 0.9 };
const gate = { minRoundScore: 1 };

function processRound(
  overrides: { baseline?: Record<string, unknown>; candidate?: Record<string, unknown>; bench?: Record<string, unknown> } = {},
) {
  return {
    engine: "sim",
    runtime: "process",
    port: 30000,
    baseline: { command: ["{node}", "{speedgate}", "sim-engine", "--port", "{port}"], ...overrides.baseline },
    candidate: { patch: "fix.patch", sourceDir: "engine", ...overrides.candidate },
    bench: { ...bench, ...overrides.bench },
    gate,
  };
}

function dockerRound(docker: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { engine: "sglang", runtime: "docker", port: 30000, baseline: { image: "lmsysorg/sglang:v0.5.5" }, bench, gate, docker, ...extra };
}

async function problemsOf(promise: Promise<unknown>): Promise<readonly string[]> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(error)}`);
  expect(error.exitCode).toBe(2);
  return error.problems;
}

describe("every path of a round config is checked before anything starts", () => {
  it("lists each missing path of a process round at once, with the field, what was written and where it points", async () => {
    const path = await writeRound(processRound({ baseline: { cwd: "engine/python" }, candidate: { cwd: "engine/python" } }), {
      "prompts.jsonl": PROMPTS,
      "fix.patch": PATCH,
    });
    const problems = await problemsOf(loadRound(path));
    const dir = join(path, "..");
    expect(problems).toEqual([
      `baseline.cwd: expected an existing folder (where the baseline engine runs), got "engine/python": ` +
        `${join(dir, "engine/python")} does not exist`,
      `candidate.sourceDir: expected an existing folder (the source copied and patched for the candidate), got "engine": ` +
        `${join(dir, "engine")} does not exist`,
      `candidate.cwd: expected an existing folder (where the candidate engine runs), got "engine/python": ` +
        `${join(dir, "engine/python")} does not exist`,
    ]);
  });

  it("prefixes the message with the config file, as every config error does", async () => {
    const path = await writeRound(processRound(), { "prompts.jsonl": PROMPTS, "fix.patch": PATCH });
    await expect(loadRound(path)).rejects.toThrow(`${path}: candidate.sourceDir: expected an existing folder`);
  });

  it("tells a file from a folder", async () => {
    const path = await writeRound(processRound({ candidate: { sourceDir: "fix.patch" } }), { "prompts.jsonl/": "", "fix.patch": PATCH });
    const problems = await problemsOf(loadRound(path));
    expect(problems).toEqual([
      expect.stringMatching(/^bench\.prompts: expected an existing file \(the JSONL prompts\), got "prompts\.jsonl": .* is a folder$/),
      expect.stringMatching(/^candidate\.sourceDir: expected an existing folder .*, got "fix\.patch": .* is a file$/),
    ]);
  });

  it("checks both build contexts and the Dockerfile inside each", async () => {
    const config = {
      ...dockerRound({}),
      baseline: { build: { context: "baseline-build" } },
      candidate: { build: { context: "candidate-build", dockerfile: "docker/Dockerfile.gpu" } },
    };
    const path = await writeRound(config, {
      "prompts.jsonl": PROMPTS,
      "baseline-build/Dockerfile": "FROM scratch\n",
      "candidate-build/": "",
    });
    const problems = await problemsOf(loadRound(path));
    expect(problems).toEqual([
      expect.stringMatching(
        concatPatterns(
          /^candidate\.build\.dockerfile: expected an existing file \(inside the build context\), got "docker\/Dockerfile\.gpu": /,
          /.*candidate-build\/docker\/Dockerfile\.gpu does not exist$/,
        ),
      ),
    ]);
  });

  it("refuses a real run whose mount source is missing, naming the mount", async () => {
    const path = await writeRound(dockerRound({ mounts: ["/nonexistent/speedgate-models/Qwen3-8B:/models/Qwen3-8B"] }), {
      "prompts.jsonl": PROMPTS,
    });
    expect(await problemsOf(loadRound(path))).toEqual([
      "docker.mounts[0].source: expected an existing file or folder (mounted at /models/Qwen3-8B, read-only), got " +
        '"/nonexistent/speedgate-models/Qwen3-8B": it does not exist',
    ]);
  });

  it("resolves a relative mount source against the config's folder", async () => {
    const path = await writeRound(dockerRound({ mounts: [{ source: "cache", target: "/root/.cache/huggingface", readOnly: false }] }), {
      "prompts.jsonl": PROMPTS,
      "cache/": "",
    });
    const round = await loadRound(path);
    expect(round.config.docker.mounts).toEqual([
      { source: join(path, "..", "cache"), target: "/root/.cache/huggingface", readOnly: false },
    ]);
  });

  it("refuses a candidate.cwd outside candidate.sourceDir, where the candidate would run unpatched code", async () => {
    const path = await writeRound(processRound({ candidate: { cwd: "elsewhere" } }), {
      "prompts.jsonl": PROMPTS,
      "fix.patch": PATCH,
      "engine/": "",
      "elsewhere/": "",
    });
    expect(await problemsOf(loadRound(path))).toEqual([
      expect.stringMatching(
        concatPatterns(
          /^candidate\.cwd: expected a folder inside candidate\.sourceDir \(.*\/engine\): the candidate runs in its patched copy of /,
          /that folder, got ".*\/elsewhere"$/,
        ),
      ),
    ]);
  });

  it("checks a patch given outside the config (--patch) as well", async () => {
    const path = await writeRound(processRound({ candidate: { patch: undefined } }), { "prompts.jsonl": PROMPTS, "engine/": "" });
    const problems = await problemsOf(loadRound(path, { patchPath: join(path, "..", "missing.patch") }));
    expect(problems).toEqual([
      expect.stringMatching(/^patch: expected an existing file \(the candidate's patch\), got ".*missing\.patch": it does not exist$/),
    ]);
  });
});

describe("checkRound (speedgate run --check)", () => {
  it("lists what only the runner has instead of refusing: absolute paths and mount sources", async () => {
    const config = dockerRound(
      { mounts: ["/nonexistent/speedgate-models:/models"] },
      { bench: { ...bench, prompts: "/nonexistent/speedgate-private/prompts.jsonl" } },
    );
    const path = await writeRound(config);
    const { round, paths } = await checkRound(path);
    expect(round.prompts).toEqual([]);
    expect(paths.filter((entry) => entry.problem !== null).map((entry) => [entry.field, entry.onRunner])).toEqual([
      ["bench.prompts", true],
      ["docker.mounts[0].source", true],
    ]);
    // The same config cannot run on this machine.
    expect(await problemsOf(loadRound(path))).toHaveLength(2);
  });

  it("still refuses a relative path that is missing: it travels with the config, so it is wrong everywhere", async () => {
    const path = await writeRound(dockerRound({}));
    expect(await problemsOf(checkRound(path))).toEqual([expect.stringMatching(/^bench\.prompts: expected an existing file/)]);
  });

  it("reads and validates the prompts and the patch when they are here", async () => {
    const path = await writeRound(processRound(), { "prompts.jsonl": '{"id": "p1"}\n', "fix.patch": PATCH, "engine/": "" });
    await expect(checkRound(path)).rejects.toThrow(/line 1: .*expected exactly one of "messages" or "prompt"/);
    await writeFile(join(path, "..", "prompts.jsonl"), PROMPTS);
    await writeFile(join(path, "..", "fix.patch"), "not a diff\n");
    await expect(checkRound(path)).rejects.toThrow(/expected a unified diff/);
  });
});
