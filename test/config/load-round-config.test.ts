import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { loadRound, parseRoundConfig, parseRoundConfigYaml } from "../../src/config/load-round-config.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { TEST_TOKENIZER_PATH } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";
import { concatPatterns } from "../support/concat-patterns.js";

const valid = {
  engine: "sglang",
  runtime: "docker",
  port: 30000,
  health: { path: "/health", timeoutS: 1200 },
  baseline: { image: "lmsysorg/sglang:v0.5.5", command: ["python3", "-m", "sglang.launch_server", "--port", "{port}"] },
  candidate: { patch: "./submission.patch", sourceDir: "/sgl-workspace/sglang" },
  bench: {
    prompts: "./prompts.jsonl",
    model: "default",
    maxTokens: 512,
    requestIntervalMs: 500,
    thinking: false,
    contextLimit: 32768,
    tolerance: 0.9,
  },
  gate: { minRoundScore: 1.0 },
};

function withField(path: string[], value: unknown): unknown {
  const copy = structuredClone(valid) as Record<string, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  const last = path[path.length - 1] as string;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

function messageFor(input: unknown): string {
  try {
    parseRoundConfig(input, "round.yml");
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    return (error as ConfigError).message;
  }
  throw new Error("expected the config to be refused");
}

describe("parseRoundConfig", () => {
  it("accepts the documented example and fills defaults", () => {
    const config = parseRoundConfig(valid);
    expect(config.bench.arrival).toBe("fixed");
    expect(config.bench.warmupRequests).toBe(0);
    expect(config.gate).toEqual({
      minRoundScore: 1,
      use: "sequential",
      maxUnscored: 0.1,
      minPrompts: 10,
      minAgreement: 1,
      maxUnexplained: 0,
      regressionFloor: 0.8,
      maxRegressedPrompts: 0.1,
    });
    // A budget of 2 to 24 runs in counterbalanced order, decided by the sequential rule (docs/scoring-statistics.md).
    expect(config.bench.runs).toEqual({ min: 2, max: 24 });
    expect(config.bench.order).toBe("counterbalanced");
    expect(config.bench.clientWarmup).toBe(true);
    expect(config.docker.network).toBe("isolated");
    expect(config.health.intervalMs).toBe(500);
  });

  it("asks for the calibration file gate.use: noise-floor gates on", () => {
    const fixed = withField(["bench", "runs"], 4) as typeof valid;
    expect(messageFor({ ...fixed, gate: { ...fixed.gate, use: "noise-floor" } })).toBe(
      "round.yml: gate.calibration: expected the calibration file gate.use: noise-floor gates on (write one with speedgate " +
        "calibrate), but it is missing",
    );
  });

  it("refuses the sequential rule for a number of runs, and fills the rules each kind of runs is decided by", () => {
    const fixed = withField(["bench", "runs"], 4) as typeof valid;
    expect(messageFor({ ...fixed, gate: { ...fixed.gate, use: "sequential" } })).toBe(
      "round.yml: gate.use: expected interval-low, noise-floor or round-score, or bench.runs as a budget { min, max }: the sequential " +
        'rule decides a budget, and bench.runs is 4, got "sequential"',
    );
    expect(parseRoundConfig(fixed).gate.use).toBe("interval-low");
    expect(parseRoundConfig({ ...fixed, gate: { ...fixed.gate, calibration: "cal.json" } }).gate.use).toBe("noise-floor");
    const budget = parseRoundConfig({ ...valid, gate: { ...valid.gate, calibration: "cal.json" } });
    expect(budget.gate.use).toBe("sequential");
  });

  it.each([
    [["bench", "tolerance"], "90%", 'round.yml: bench.tolerance: expected a number in (0, 1], got "90%"'],
    [["bench", "tolerance"], 0, "round.yml: bench.tolerance: expected a number in (0, 1], got 0"],
    [["bench", "tolerance"], 1.5, "round.yml: bench.tolerance: expected a number in (0, 1], got 1.5"],
    [["runtime"], "kubernetes", 'round.yml: runtime: expected one of "docker", "process", got "kubernetes"'],
    [["port"], 70000, "round.yml: port: expected a TCP port from 1 to 65535, got 70000"],
    [["port"], "30000", 'round.yml: port: expected a TCP port from 1 to 65535, got "30000"'],
    [["engine"], "", 'round.yml: engine: expected the engine\'s name for the card, such as sglang, vllm or llama.cpp, got ""'],
    [["health", "path"], "health", 'round.yml: health.path: expected a URL path starting with /, got "health"'],
    [["health", "timeoutS"], -1, "round.yml: health.timeoutS: expected a number of seconds greater than 0, got -1"],
    [["bench", "maxTokens"], 12.5, "round.yml: bench.maxTokens: expected a whole number of tokens from 1 to 1000000, got 12.5"],
    [["bench", "requestIntervalMs"], -5, "round.yml: bench.requestIntervalMs: expected a number of milliseconds, 0 or more, got -5"],
    [["bench", "thinking"], "yes", 'round.yml: bench.thinking: expected true or false, got "yes"'],
    [["bench", "contextLimit"], 0, "round.yml: bench.contextLimit: expected a whole number of tokens from 1 to 10000000, got 0"],
    [
      ["bench", "prompts"],
      undefined,
      "round.yml: bench.prompts: expected the path of a JSONL prompts file, or { synthetic: { inputTokens, outputTokens, count, seed " +
        "} }, but it is missing",
    ],
    [
      ["bench", "requestIntervalMs"],
      undefined,
      "round.yml: bench.requestIntervalMs: expected a number of milliseconds, 0 or more (or bench.concurrency, the requests kept in " +
        "flight), but it is missing",
    ],
    [["bench", "arrival"], "burst", 'round.yml: bench.arrival: expected one of "fixed", "poisson", got "burst"'],
    [["gate", "minRoundScore"], "1.0x", 'round.yml: gate.minRoundScore: expected a speedup greater than 0, such as 1.0, got "1.0x"'],
    [
      ["gate", "use"],
      "mean",
      'round.yml: gate.use: expected one of "interval-low", "noise-floor", "round-score", "sequential", got "mean"',
    ],
    [["gate", "maxUnscored"], 1, "round.yml: gate.maxUnscored: expected a share of prompts in [0, 1), such as 0.1, got 1"],
    [["gate", "minPrompts"], 0, "round.yml: gate.minPrompts: expected a whole number of prompts, 1 or more, got 0"],
    [
      ["bench", "runs"],
      0,
      "round.yml: bench.runs: expected a whole number of runs from 1 to 100, or a budget { min, max } of runs from 2 to 32 the rule " +
        "decides within, got 0",
    ],
    [["bench", "runs"], { min: 2, max: 64 }, "round.yml: bench.runs.max: expected a whole number of runs from 2 to 32, got 64"],
    [["bench", "runs"], { min: 8, max: 4 }, 'round.yml: bench.runs: expected min (8) to be at most max (4), got {"min":8,"max":4}'],
    [
      ["bench", "runs"],
      { min: 2, max: 7 },
      "round.yml: bench.runs: expected even min and max with bench.order counterbalanced (2 and 7): the rule looks after whole pairs " +
        'of runs, one with the baseline first and one with the candidate first, got {"min":2,"max":7}',
    ],
    [
      ["gate", "use"],
      "interval-low",
      "round.yml: gate.use: expected sequential, or no gate.use: bench.runs is a budget ({ min: 2, max: 24 }), which the sequential " +
        'rule decides (a number of runs is gated by interval-low, noise-floor or round-score), got "interval-low"',
    ],
    [
      ["baseline", "command"],
      "python3 -m sglang",
      'round.yml: baseline.command: expected a list of arguments, such as [python3, -m, sglang.launch_server, --port, "{port}"], got ' +
        '"python3 -m sglang"',
    ],
    [["candidate", "patch"], 42, "round.yml: candidate.patch: expected the path of a patch file, got 42"],
    [
      ["docker"],
      { gpus: "some" },
      'round.yml: docker.gpus: expected "all", a GPU count such as 2, or a list of device ids such as ["0", "1"], got "some"',
    ],
    [["docker"], { network: "bridge" }, 'round.yml: docker.network: expected one of "isolated", "host", got "bridge"'],
    [["docker"], { shmSize: "lots" }, 'round.yml: docker.shmSize: expected a size such as "16g", "512m", got "lots"'],
    [
      ["docker"],
      { memory: "150%" },
      'round.yml: docker.memory: expected a size such as "64g", a share of the host\'s memory such as "90%", or "unlimited", got "150%"',
    ],
    [
      ["docker"],
      { capAdd: ["ALL"] },
      'round.yml: docker.capAdd[0]: expected a single capability, not ALL (that is privileged mode), got "ALL"',
    ],
    [["build"], { network: "bridge" }, 'round.yml: build.network: expected one of "none", "default", "host", got "bridge"'],
    [["bench", "agreementTokens"], -1, "round.yml: bench.agreementTokens: expected a whole number of tokens, 0 (off) to 1000000, got -1"],
    [["bench", "busyPoll"], true, 'round.yml: bench.busyPoll: expected one of "auto", "on", "off", got true'],
    [
      ["bench", "tokenizer"],
      "models/tokenizer.json",
      "round.yml: bench.tokenizer: expected an absolute path inside the baseline image, such as /models/m/tokenizer.json (or { path, " +
        'from: runner } for a file on the runner), got "models/tokenizer.json"',
    ],
    [
      ["bench", "tokenizer"],
      { path: "/m/tokenizer.json", from: "hub" },
      "round.yml: bench.tokenizer: expected the path of the model's tokenizer.json, or { path, from: runner | image } (default: " +
        "inside the baseline image with runtime: docker, on the runner with runtime: process), got " +
        '{"path":"/m/tokenizer.json","from":"hub"}',
    ],
  ])("names the field, the value and what is expected: %j = %j", (path, value, message) => {
    expect(messageFor(withField(path, value))).toBe(message);
  });

  it("names an unknown field and the fields that are allowed there", () => {
    expect(messageFor(withField(["bench", "tolerence"], 0.9))).toBe(
      "round.yml: bench.tolerence: unknown field, expected one of prompts, model, maxTokens, requestIntervalMs, arrival, " +
        "concurrency, seed, thinking, contextLimit, tolerance, warmupRequests, runs, order, clientWarmup, requestTimeoutS, tokenizer, " +
        "agreementTokens, minPromptAgreement, busyPoll",
    );
  });

  it("names the fields allowed in a section that has defaults of its own", () => {
    expect(messageFor(withField(["docker"], { shm: "1g" }))).toBe(
      "round.yml: docker.shm: unknown field, expected one of gpus, shmSize, ipc, memory, pidsLimit, cpus, capAdd, logMaxSize, " +
        "logMaxFiles, ulimits, network, diskSize, mounts, entrypoint, stopTimeoutS, keepCandidateImage",
    );
  });

  it("refuses bench.concurrency beside either field of the open loop, naming both", () => {
    const both = withField(["bench", "concurrency"], 8) as { bench: Record<string, unknown> };
    expect(messageFor(both)).toBe(
      "round.yml: bench.requestIntervalMs: expected either bench.concurrency (a closed loop: the next prompt is sent when an answer " +
        "ends) or bench.requestIntervalMs (an open loop: prompts sent on a schedule), not both; remove one, got 500",
    );
    delete both.bench.requestIntervalMs;
    both.bench.arrival = "poisson";
    expect(messageFor(both)).toContain(
      "bench.arrival: expected either bench.concurrency (a closed loop: the next prompt is sent when an answer ends) or bench.arrival",
    );
    both.bench.concurrency = 0;
    expect(messageFor(both)).toContain("bench.concurrency: expected a whole number of requests in flight from 1 to 100000, got 0");
  });

  it("reads bench.concurrency as a closed loop, and an open loop's settings as before", () => {
    const closed = withField(["bench", "concurrency"], 8) as { bench: Record<string, unknown> };
    delete closed.bench.requestIntervalMs;
    const config = parseRoundConfig(closed);
    expect(config.bench.concurrency).toBe(8);
    // The open loop's fields stay numbers every reader has; nothing schedules by them.
    expect(config.bench.requestIntervalMs).toBe(0);
    expect(config.bench.arrival).toBe("fixed");
    expect(parseRoundConfig(valid).bench.concurrency).toBeNull();
  });

  it("holds synthetic prompts to a tokenizer on the runner and to the context", () => {
    const synthetic = { synthetic: { inputTokens: 30_000, outputTokens: 4_000, count: 3 } };
    const message = messageFor(withField(["bench", "prompts"], synthetic));
    expect(message).toContain(
      "bench.tokenizer: expected the model's tokenizer.json on the runner ({ path, from: runner }) with bench.prompts.synthetic",
    );
    expect(message).toContain(
      "bench.prompts.synthetic: expected inputTokens + outputTokens (34000) at most bench.contextLimit (32768); lower one of them",
    );
    expect(messageFor(withField(["bench", "prompts"], { synthetic: { inputTokens: 16, outputTokens: 0, count: 3 } }))).toContain(
      "bench.prompts.synthetic.outputTokens: expected a whole number of answer tokens from 1 to 1000000, got 0",
    );
    const fits = withField(["bench", "prompts"], { synthetic: { inputTokens: 16, outputTokens: 8, count: 3 } }) as {
      bench: Record<string, unknown>;
    };
    fits.bench.tokenizer = { path: "tokenizer.json", from: "runner" };
    expect(parseRoundConfig(fits).bench.prompts).toEqual({ synthetic: { inputTokens: 16, outputTokens: 8, count: 3, seed: 1 } });
  });

  it("requires a command for the process runtime and an image for Docker", () => {
    const processWithout = withField(["runtime"], "process") as Record<string, Record<string, unknown>>;
    delete processWithout.baseline?.command;
    expect(messageFor(processWithout)).toContain("baseline.command: expected the command that starts the engine");
    expect(messageFor(withField(["baseline", "image"], undefined))).toContain(
      "baseline.image: expected an image reference or baseline.build",
    );
  });

  it("lists every problem of a config at once", () => {
    const broken = withField(["bench", "tolerance"], "90%") as Record<string, Record<string, unknown>>;
    broken.port = 0 as unknown as Record<string, unknown>;
    const message = messageFor(broken);
    expect(message).toMatch(/^round\.yml: 2 problems\n/);
    expect(message).toContain("  - port: expected a TCP port from 1 to 65535, got 0");
    expect(message).toContain('  - bench.tolerance: expected a number in (0, 1], got "90%"');
  });

  it("refuses a document that is not a mapping", () => {
    expect(messageFor("just a string")).toContain("(root): expected a YAML mapping");
  });
});

describe("parseRoundConfigYaml", () => {
  it("reports YAML syntax errors as config errors", () => {
    expect(() => parseRoundConfigYaml("engine: [unclosed", "round.yml")).toThrow(/round\.yml: expected valid YAML/);
  });

  it("refuses duplicate keys, which YAML would otherwise silently resolve", () => {
    expect(() => parseRoundConfigYaml("engine: a\nengine: b\n", "round.yml")).toThrow(ConfigError);
  });

  it.each([
    [
      "a key indented under a value",
      "engine: sim\nruntime: process\n  port: 1\n",
      'at line 2, column 10 ("runtime: process"); check the indentation of lines 2 and 3',
    ],
    [
      "a key indented less than its neighbours",
      "bench:\n  prompts: a\n maxTokens: 3\n",
      'at line 3, column 1 ("maxTokens: 3"); check the indentation of line 3',
    ],
  ])("says where %s is, in one line that does not end in a colon", (_name, text, where) => {
    const message = (() => {
      try {
        parseRoundConfigYaml(text, "round.yml");
      } catch (error) {
        return (error as ConfigError).message;
      }
      return "accepted";
    })();
    expect(message.split("\n")).toHaveLength(1);
    expect(message).toContain(where);
    expect(message).toMatch(/^round\.yml: expected valid YAML, [a-z].*indented$/);
  });
});

describe("bench.maxTokens and bench.contextLimit", () => {
  it("refuses a maxTokens above the context limit, naming both", () => {
    const message = messageFor(withField(["bench", "maxTokens"], 40_000));
    expect(message).toBe(
      "round.yml: bench.maxTokens: expected at most bench.contextLimit (32768): an answer cannot be longer than the context it is " +
        "written in, got 40000",
    );
  });
});

describe("loadRound", () => {
  async function writeRound(files: Record<string, string>): Promise<string> {
    const dir = await makeTempDir("speedgate-config-");
    for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
    return dir;
  }

  const patch = "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n";
  const prompts = '{"id":"p1","messages":[{"role":"user","content":"hi"}]}\n{"id":"p2","prompt":"hello","maxTokens":16}\n';

  it("resolves paths against the config's folder and reads prompts and patch", async () => {
    const dir = await writeRound({ "round.yml": stringify(valid), "prompts.jsonl": prompts, "submission.patch": patch });
    const round = await loadRound(join(dir, "round.yml"));
    expect(round.config.bench.prompts).toBe(join(dir, "prompts.jsonl"));
    expect(round.config.candidate.patch).toBe(join(dir, "submission.patch"));
    // Inside the image: not a host path, so not resolved.
    expect(round.config.candidate.sourceDir).toBe("/sgl-workspace/sglang");
    expect(round.prompts.map((p) => p.id)).toEqual(["p1", "p2"]);
    expect(round.patch?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("names the prompts file line that is bad", async () => {
    const dir = await writeRound({
      "round.yml": stringify(valid),
      "prompts.jsonl":
        `${prompts}{"id":"p3","messages":"hi"}\n{not ` +
        `json}\n{"id":"p1","prompt":"again"}\n{"id":"p6","prompt":"hello","maxTokens":64}\n`,
      "submission.patch": patch,
    });
    const error = await loadRound(join(dir, "round.yml")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('line 3: messages: expected a list of chat messages, got "hi"');
    expect(message).toContain("line 4: expected a JSON object, got");
    expect(message).toContain('line 5: id "p1" is already used on line 1; ids must be unique');
    // The same request twice is one a cache of whole answers would serve from memory the second time.
    expect(message).toContain(
      'line 6: prompt "p6" sends the same prompt as line 2; an engine that caches answers would answer it from memory',
    );
  });

  it.each([
    ["an empty patch", "", "expected a non-empty patch, got an empty file"],
    ["a binary patch", "diff --git a/x b/x\n\u0000\u0001", "expected a text patch (git diff or diff -u), got binary data"],
    ["text that is no diff", "hello world\n", "expected a unified diff"],
  ])("refuses %s before anything starts", async (_name, content, message) => {
    const dir = await writeRound({ "round.yml": stringify(valid), "prompts.jsonl": prompts, "submission.patch": content });
    await expect(loadRound(join(dir, "round.yml"))).rejects.toThrow(message);
  });

  it("accepts a prompts file saved with a UTF-8 byte-order mark, and reads the same prompts as without it", async () => {
    const plain = await writeRound({ "round.yml": stringify(valid), "prompts.jsonl": prompts, "submission.patch": patch });
    const marked = await writeRound({ "round.yml": stringify(valid), "prompts.jsonl": `\uFEFF${prompts}`, "submission.patch": patch });
    const [a, b] = await Promise.all([loadRound(join(plain, "round.yml")), loadRound(join(marked, "round.yml"))]);
    expect(b.prompts).toEqual(a.prompts);
    expect(b.fingerprint?.promptsHash).toBe(a.fingerprint?.promptsHash);
  });

  it("refuses a prompt whose own maxTokens is above bench.contextLimit, naming it and both limits", async () => {
    const dir = await writeRound({
      "round.yml": stringify(valid),
      "prompts.jsonl": `${prompts}{"id":"long","prompt":"write","maxTokens":40000}\n`,
      "submission.patch": patch,
    });
    await expect(loadRound(join(dir, "round.yml"))).rejects.toThrow('prompt "long": maxTokens 40000 is above bench.contextLimit (32768)');
  });

  it.each([
    ["a hunk cut short", "--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a\n-b\n", "the hunk at line 3 is cut short"],
    [
      "a hunk with a stray line",
      "--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n a\nb\n+c\n",
      'line 5: expected a line of the hunk at line 3 (starting with a space, "+" or "-"; 1 old and 1 new lines still to come), got "b"',
    ],
  ])("refuses %s as a config error naming the line, not as a patch that does not apply", async (_name, content, message) => {
    const dir = await writeRound({ "round.yml": stringify(valid), "prompts.jsonl": prompts, "submission.patch": content });
    const error = await loadRound(join(dir, "round.yml")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(`expected a well-formed unified diff, but ${message}`);
  });

  it("refuses a patch over 10 MiB", async () => {
    const big = `diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n${"+x\n".repeat(4 * 1024 * 1024)}`;
    const dir = await writeRound({ "round.yml": stringify(valid), "prompts.jsonl": prompts, "submission.patch": big });
    await expect(loadRound(join(dir, "round.yml"))).rejects.toThrow(/expected a patch of at most 10 MiB, got 12\.0 MiB/);
  });

  it("reads bench.tokenizer from the runner, relative to the config, before anything starts", async () => {
    const tokenizer = await readFile(TEST_TOKENIZER_PATH, "utf8");
    const config = {
      ...valid,
      runtime: "process",
      baseline: { command: ["engine"] },
      candidate: { ...valid.candidate, sourceDir: "./source" },
      bench: { ...valid.bench, tokenizer: "tok/tokenizer.json" },
    };
    const dir = await writeRound({ "round.yml": stringify(config), "prompts.jsonl": prompts, "submission.patch": patch });
    await mkdir(join(dir, "source"));
    // Checked with the config's other paths, and it is the only problem of this config.
    await expect(loadRound(join(dir, "round.yml"))).rejects.toThrow(
      concatPatterns(
        /round\.yml: bench\.tokenizer: expected an existing file \(the model's tokenizer\.json\), got "tok\/tokenizer\.json": /,
        /.*tok\/tokenizer\.json does not exist$/,
      ),
    );
    await mkdir(join(dir, "tok"));
    await writeFile(join(dir, "tok", "tokenizer.json"), "not json");
    await expect(loadRound(join(dir, "round.yml"))).rejects.toThrow(
      /tok\/tokenizer\.json: expected a Hugging Face tokenizer\.json, but it is not JSON/,
    );
    await writeFile(join(dir, "tok", "tokenizer.json"), tokenizer);
    const round = await loadRound(join(dir, "round.yml"));
    expect(round.config.bench.tokenizer).toEqual({ path: join(dir, "tok", "tokenizer.json"), from: "runner" });
    expect(round.tokenCounter?.count(" The engine").ids).toHaveLength(2);
  });

  it("builds synthetic prompts with the runner's tokenizer when the round is loaded, with no prompts file", async () => {
    const config = {
      ...valid,
      bench: {
        ...valid.bench,
        prompts: { synthetic: { inputTokens: 12, outputTokens: 5, count: 3, seed: 7 } },
        tokenizer: { path: "tokenizer.json", from: "runner" },
      },
    };
    const dir = await writeRound({
      "round.yml": stringify(config),
      "submission.patch": patch,
      "tokenizer.json": await readFile(TEST_TOKENIZER_PATH, "utf8"),
    });
    const round = await loadRound(join(dir, "round.yml"));
    expect(round.prompts.map((prompt) => prompt.id)).toEqual(["synthetic-1", "synthetic-2", "synthetic-3"]);
    for (const prompt of round.prompts) {
      expect(round.tokenCounter?.count(prompt.prompt ?? "").ids).toHaveLength(12);
      expect(prompt.maxTokens).toBe(5);
    }
    // The prompts are in the fingerprint: another seed is another round.
    const reseeded = {
      ...config,
      bench: { ...config.bench, prompts: { synthetic: { inputTokens: 12, outputTokens: 5, count: 3, seed: 8 } } },
    };
    await writeFile(join(dir, "round.yml"), stringify(reseeded));
    expect((await loadRound(join(dir, "round.yml"))).fingerprint?.promptsHash).not.toBe(round.fingerprint?.promptsHash);
  });

  it("leaves a tokenizer inside the image for the round to read, and has none without bench.tokenizer", async () => {
    const inImage = { ...valid, bench: { ...valid.bench, tokenizer: "/models/m/tokenizer.json" } };
    const dir = await writeRound({ "round.yml": stringify(inImage), "prompts.jsonl": prompts, "submission.patch": patch });
    const round = await loadRound(join(dir, "round.yml"));
    expect(round.config.bench.tokenizer).toEqual({ path: "/models/m/tokenizer.json", from: "image" });
    expect(round.tokenCounter).toBeUndefined();
    await writeFile(join(dir, "round.yml"), stringify(valid));
    expect((await loadRound(join(dir, "round.yml"))).tokenCounter).toBeNull();
  });

  it("says which file it could not read", async () => {
    const dir = await writeRound({ "round.yml": stringify(valid), "submission.patch": patch });
    await expect(loadRound(join(dir, "round.yml"))).rejects.toThrow(
      /bench\.prompts: expected an existing file \(the JSONL prompts\), got "\.\/prompts\.jsonl": .*prompts\.jsonl does not exist/,
    );
    await expect(loadRound(join(dir, "missing.yml"))).rejects.toThrow(/config: expected a readable round config file/);
  });
});
