import { existsSync } from "node:fs";
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli } from "./support/sim-round.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { TEST_TOKENIZER_PATH } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";
import { concatPatterns } from "../support/concat-patterns.js";

const examples = fileURLToPath(new URL("../../examples/", import.meta.url));
const engineRepository = join(examples, "engine-repository");

async function check(configPath: string, ...extra: string[]) {
  const result = await runCli(["run", "--config", configPath, "--check", ...extra]);
  const errors = result.logger.lines.filter((line) => line.level === "error").map((line) => line.message);
  return { ...result, errors };
}

describe("speedgate run --check on the shipped engine configs", () => {
  it.each([
    [
      "examples/rounds/sglang.yaml",
      "python3 -m sglang.launch_server --model-path /models/Qwen3-8B --served-model-name qwen3-8b --host 0.0.0.0 --port 30000 " +
        "--context-length 32768 --mem-fraction-static 0.85",
    ],
    [
      "examples/rounds/vllm.yaml",
      "vllm serve /models/Qwen3-8B --served-model-name qwen3-8b --host 0.0.0.0 --port 8000 --max-model-len 32768 " +
        "--gpu-memory-utilization 0.90 (the image's ENTRYPOINT cleared)",
    ],
    ["examples/engine-repository/.github/speedgate/round.yaml", "python3 -m sglang.launch_server --model-path /models/Qwen3-8B"],
  ])("%s passes on a machine without GPUs, images or weights, and lists them as the runner's", async (file, command) => {
    const { code, stdout, errors } = await check(join(examples, "..", file));
    expect(errors).toEqual([]);
    expect(code).toBe(0);
    expect(stdout).toContain("is valid; nothing was started.");
    expect(stdout).toContain(`runs: ${command}`);
    expect(stdout).toContain("prompts: 12 from ");
    const runnerSection = stdout.slice(stdout.indexOf("The runner must have"));
    expect(runnerSection).toContain("GPUs for containers (the NVIDIA Container Toolkit): docker.gpus: all");
    expect(runnerSection).toMatch(/the image (lmsysorg\/sglang:dev|vllm\/vllm-openai:nightly), or access to pull it/);
    expect(runnerSection).toContain("/srv/models/Qwen3-8B (docker.mounts[0].source, mounted at /models/Qwen3-8B, read-only)");
    // The engines get a GPU: the README's first SGLang config had none, and the note would say so.
    expect(stdout).not.toContain("docker.gpus is not set");
  });

  it.each([
    ["llama-cpp.yaml", "-np 4 -t 8", null],
    ["llama-cpp-cuda.yaml", "-np 4 -ngl 99", "GPUs for containers (the NVIDIA Container Toolkit): docker.gpus: all"],
  ])(
    "examples/rounds/%s builds llama.cpp from the checkout, rebuilds the patched tree incrementally, and passes --check",
    async (file, flags, gpus) => {
      const { code, stdout, errors } = await check(join(examples, "rounds", file));
      expect(errors).toEqual([]);
      expect(code).toBe(0);
      expect(stdout).toContain("is valid; nothing was started.");
      expect(stdout).toContain(
        `runs: llama-server -m /models/qwen3-0.6b/Qwen3-0.6B-Q8_0.gguf --alias qwen3-0.6b --host 0.0.0.0 --port 8080 -c 32768 ${flags}`,
      );
      expect(stdout).toContain("the baseline image with the patch applied in /src/llama.cpp (an overlay build, then 1 postPatch command)");
      expect(stdout).toContain("health: GET /health every 500 ms until 200, for up to 600 s");
      const runnerSection = stdout.slice(stdout.indexOf("The runner must have"));
      expect(runnerSection).toContain("/srv/models/qwen3-0.6b (docker.mounts[0].source, mounted at /models/qwen3-0.6b, read-only)");
      if (gpus) expect(runnerSection).toContain(gpus);
      // The CPU round needs no GPU, and says so rather than warn about it.
      else expect(stdout).toContain("docker.gpus is not set: llama.cpp runs on the CPU");
    },
  );

  it("gives SGLang the shared memory its docs run with and vLLM a large one, both in a private IPC namespace", async () => {
    const sglang = (await check(join(examples, "rounds", "sglang.yaml"))).stdout;
    // The shipped rounds score strangers' pull requests: ipc: host (for trusted code only) would share the runner's.
    expect(sglang).toContain("GPUs: all; shared memory: 32g; IPC: private");
    const vllm = (await check(join(examples, "rounds", "vllm.yaml"))).stdout;
    expect(vllm).toContain("GPUs: all; shared memory: 16g; IPC: private");
    for (const text of [sglang, vllm]) {
      expect(text).toContain("health: GET /health every 500 ms until 200, for up to 1800 s");
      expect(text).toContain("mount: /srv/models/Qwen3-8B -> /models/Qwen3-8B (read-only)");
    }
    const raw = parse(await readFile(join(examples, "rounds", "sglang.yaml"), "utf8")) as { docker: { shmSize: string } };
    expect(raw.docker.shmSize).toBe("32g");
  });

  it("counts tokens with the model's tokenizer from the runner's read-only model folder in every shipped Docker round", async () => {
    for (const file of ["sglang.yaml", "vllm.yaml"]) {
      const raw = parse(await readFile(join(examples, "rounds", file), "utf8")) as {
        bench: { tokenizer?: { path: string; from: string } };
        docker: { ipc?: string; mounts: Array<{ source: string; readOnly?: boolean }> };
      };
      expect(raw.bench.tokenizer?.from, file).toBe("runner");
      const folder = raw.docker.mounts.find((mount) => raw.bench.tokenizer?.path.startsWith(`${mount.source}/`));
      expect(folder, file).toBeDefined();
      expect(folder?.readOnly, file).not.toBe(false);
      expect(raw.docker.ipc ?? "private", file).toBe("private");
      const { stdout } = await check(join(examples, "rounds", file));
      expect(stdout).toContain(`${raw.bench.tokenizer?.path} (bench.tokenizer, the model's tokenizer.json): not on this machine`);
    }
  });

  it("ships .github/speedgate/round.yaml, the file the example workflows name, as the SGLang config with its prompts", async () => {
    const workflows = await readdir(join(examples, "workflows"));
    const named = new Set<string>();
    for (const file of workflows) {
      const text = await readFile(join(examples, "workflows", file), "utf8");
      for (const match of text.matchAll(/^\s+config: (\S+)$/gm)) named.add(match[1] ?? "");
    }
    expect([...named]).toEqual([".github/speedgate/round.yaml"]);
    expect(await readFile(join(engineRepository, ".github", "speedgate", "round.yaml"), "utf8")).toBe(
      await readFile(join(examples, "rounds", "sglang.yaml"), "utf8"),
    );
    expect(await readFile(join(engineRepository, ".github", "speedgate", "prompts.jsonl"), "utf8")).toBe(
      await readFile(join(examples, "rounds", "prompts.jsonl"), "utf8"),
    );
  });

  it("validates a patch given with --patch, and refuses one that is no diff", async () => {
    const dir = await makeTempDir("speedgate-check-");
    await writeFile(
      join(dir, "good.patch"),
      "--- a/python/sglang/srt/server_args.py\n+++ b/python/sglang/srt/server_args.py\n@@ -1 +1 @@\n-a\n+b\n",
    );
    await writeFile(join(dir, "bad.patch"), "I made it faster, trust me\n");
    const good = await check(join(examples, "rounds", "sglang.yaml"), "--patch", join(dir, "good.patch"));
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/patch: .*good\.patch \(\d+ bytes, sha256 [0-9a-f]{16}…\)/);
    expect(good.stdout).toContain("the baseline image with the patch applied in /sgl-workspace/sglang (an overlay build)");
    const bad = await check(join(examples, "rounds", "sglang.yaml"), "--patch", join(dir, "bad.patch"));
    expect(bad.code).toBe(2);
    expect(bad.errors.join("\n")).toMatch(/^patch \(.*bad\.patch\): expected a unified diff/);
    // A diff cut short is a broken file, refused here as the run refuses it: exit 2, before anything starts.
    await writeFile(
      join(dir, "cut.patch"),
      "--- a/python/sglang/srt/server_args.py\n+++ b/python/sglang/srt/server_args.py\n@@ -1,3 +1,3 @@\n a\n-b\n",
    );
    const cut = await check(join(examples, "rounds", "sglang.yaml"), "--patch", join(dir, "cut.patch"));
    expect(cut.code).toBe(2);
    expect(cut.errors.join("\n")).toMatch(
      /^patch \(.*cut\.patch\): expected a well-formed unified diff, but the hunk at line 3 is cut short/,
    );
  });
});

describe("speedgate run --check on a process round", () => {
  async function writeProcessRound(config: Record<string, unknown>): Promise<{ dir: string; configPath: string; marker: string }> {
    const dir = await makeTempDir("speedgate-check-");
    await mkdir(join(dir, "engine", "python"), { recursive: true });
    await writeFile(join(dir, "prompts.jsonl"), '{"id": "p1", "prompt": "hello"}\n');
    await writeFile(join(dir, "fix.patch"), "--- a/python/profile.json\n+++ b/python/profile.json\n@@ -1 +1 @@\n-{}\n+{ }\n");
    const marker = join(dir, "engine-started");
    const configPath = join(dir, "round.yml");
    await writeFile(
      configPath,
      JSON.stringify({
        engine: "sim",
        runtime: "process",
        port: 30000,
        // Would leave a file behind if anything started it.
        baseline: { command: ["{node}", "-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "")`], cwd: "engine/python" },
        candidate: { patch: "fix.patch", sourceDir: "engine" },
        bench: { prompts: "prompts.jsonl", maxTokens: 16, requestIntervalMs: 10, contextLimit: 1024, tolerance: 0.9 },
        gate: { minRoundScore: 1 },
        ...config,
      }),
    );
    return { dir, configPath, marker };
  }

  it("says where each engine runs, starts nothing and needs no --out", async () => {
    const { dir, configPath, marker } = await writeProcessRound({});
    const { code, stdout } = await check(configPath);
    expect(code).toBe(0);
    expect(stdout).toContain(`in: ${join(dir, "engine", "python")}`);
    expect(stdout).toContain(`in: python/ in its patched copy of ${join(dir, "engine")}`);
    expect(stdout).toContain("nothing beyond this machine's files (all checked)");
    expect(existsSync(marker)).toBe(false);
  });

  it("exits 2 with the config's message when a path is missing, as a real run would", async () => {
    const { configPath, marker } = await writeProcessRound({ candidate: { patch: "fix.patch", sourceDir: "sglang" } });
    const { code, errors } = await check(configPath);
    expect(code).toBe(2);
    expect(errors).toEqual([
      expect.stringMatching(/round\.yml: candidate\.sourceDir: expected an existing folder .*, got "sglang": .*sglang does not exist$/),
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it("shows {host} as the loopback address the process runtime fills, and refuses a placeholder no runtime fills", async () => {
    const filled = await writeProcessRound({
      baseline: { command: ["./serve", "--host", "{host}", "--port", "{port}"], cwd: "engine/python" },
    });
    const shown = await check(filled.configPath);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("runs: ./serve --host 127.0.0.1 --port 30000");
    const typo = await writeProcessRound({
      baseline: { command: ["./serve", "--host", "{hots}", "--port", "{port}"], cwd: "engine/python" },
    });
    const refused = await check(typo.configPath);
    expect(refused.code).toBe(2);
    expect(refused.errors).toEqual([
      expect.stringMatching(
        concatPatterns(
          /round\.yml: baseline\.command\[2\]: expected only the placeholders runtime: process fills \(\{port\}, \{host\}.*\); /,
          /\{hots\} is none of them \(did you mean \{host\}\?\), got "\{hots\}"$/,
        ),
      ),
    ]);
  });

  it("names the field a misspelled one meant, once, instead of reporting it missing and unknown", async () => {
    const { configPath } = await writeProcessRound({
      bench: { prompts: "prompts.jsonl", maxTokens: 16, requestIntervalMs: 10, contextLimit: 1024, tolerence: 0.9 },
    });
    const { code, errors } = await check(configPath);
    expect(code).toBe(2);
    expect(errors).toEqual([expect.stringMatching(/round\.yml: bench\.tolerence: unknown field, did you mean `tolerance`\?$/)]);
  });
});

describe("speedgate run --check on synthetic prompts in a closed loop", () => {
  async function writeConfig(tokenizer: string): Promise<string> {
    const dir = await makeTempDir("speedgate-check-synthetic-");
    const config = {
      engine: "sim-engine",
      runtime: "process",
      port: 18_999,
      baseline: { command: ["engine", "--port", "{port}"] },
      bench: {
        prompts: { synthetic: { inputTokens: 12, outputTokens: 8, count: 3 } },
        tokenizer: { path: tokenizer, from: "runner" },
        maxTokens: 8,
        concurrency: 4,
        contextLimit: 4096,
        tolerance: 0.9,
      },
      gate: { minRoundScore: 1 },
    };
    await writeFile(join(dir, "round.yaml"), JSON.stringify(config));
    return join(dir, "round.yaml");
  }

  it("plans the synthetic prompts and the load, made with the tokenizer here", async () => {
    const { code, stdout, errors } = await check(await writeConfig(TEST_TOKENIZER_PATH));
    expect(errors).toEqual([]);
    expect(code).toBe(0);
    expect(stdout).toContain("prompts: 3 synthetic, each 12 tokens asking for exactly 8 (seed 1), concurrency 4, 0 warm-up");
  });

  it("says the prompts wait for a tokenizer that only the runner has", async () => {
    const { code, stdout } = await check(await writeConfig("/srv/models/absent/tokenizer.json"));
    expect(code).toBe(0);
    expect(stdout).toContain("the synthetic prompts wait for bench.tokenizer, which is on the runner only");
  });
});
