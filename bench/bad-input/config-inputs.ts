import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { main } from "../../src/cli/main.js";
import { createRecordingLogger } from "../../src/logger.js";
import { type CorpusRow, firstLine } from "./corpus-row.js";

/** A config the CLI accepts; each row breaks one thing in it. Its engine exits at once, should a bad value ever get through. */
function baseConfig(): Record<string, unknown> {
  return {
    engine: "sim",
    runtime: "process",
    port: 1,
    health: { path: "/health", timeoutS: 1, intervalMs: 50 },
    baseline: { command: [process.execPath, "-e", "process.exit(3)"] },
    candidate: { sourceDir: "src" },
    bench: { prompts: "prompts.jsonl", maxTokens: 16, requestIntervalMs: 0, contextLimit: 4096, tolerance: 0.9 },
    gate: { minRoundScore: 1 },
  };
}

const MISSING = Symbol("missing");

/** Wrong values for every field of the round config (bench/bad-input/list-config-fields.ts lists them). */
export const WRONG_FIELD_VALUES: Record<string, unknown[]> = {
  engine: ["", 42, MISSING],
  runtime: ["kubernetes", 1, MISSING],
  port: [0, 70_000, "30000", 80.5, MISSING],
  "health.path": ["health", 5],
  "health.timeoutS": [0, -5, "20m"],
  "health.intervalMs": [5, 120_000, 1.5],
  "baseline.image": ["", 3],
  "baseline.build.context": ["", 5],
  "baseline.build.dockerfile": [""],
  "baseline.build.args": ["--build-arg X=1", { X: 1 }],
  "baseline.command": ["python3 -m sglang.launch_server", [], [""], [1, 2]],
  "baseline.cwd": [""],
  "baseline.env": [["A=1"], { CUDA_VISIBLE_DEVICES: 0 }],
  "candidate.patch": ["", "no-such.patch"],
  "candidate.sourceDir": ["", 7],
  "candidate.command": ["python3 -m vllm.entrypoints.openai.api_server", []],
  "candidate.postPatch": ["make", [[""]], ["make"]],
  "candidate.build.context": ["", 9],
  "candidate.build.dockerfile": [""],
  "candidate.build.args": [[1]],
  "candidate.env": ["A=1", { A: true }],
  "candidate.cwd": ["", 5],
  "candidate.trusted": ["yes", 1],
  "bench.prompts": ["", "no-such-prompts.jsonl", MISSING],
  "bench.model": ["", 12],
  "bench.maxTokens": [0, 2_000_000, 16.5, "many", MISSING],
  "bench.requestIntervalMs": [-1, "100ms", MISSING],
  "bench.arrival": ["burst"],
  "bench.concurrency": [0, 2.5, "four"],
  "bench.seed": [-1, 1.5, 2 ** 40],
  "bench.thinking": ["yes", 1],
  "bench.contextLimit": [0, 20_000_000, MISSING],
  "bench.tolerance": [0, 1.5, "90%", MISSING],
  "bench.warmupRequests": [-1, 100_000],
  "bench.requestTimeoutS": [0, "10s"],
  // The round folder holds prompts.jsonl: a file that is there but is no tokenizer.
  "bench.tokenizer": [
    "",
    5,
    "no-such-tokenizer.json",
    "prompts.jsonl",
    { path: "t.json", from: "hub" },
    { path: "/m/tokenizer.json", from: "image" },
  ],
  "bench.agreementTokens": [-1, 1.5, "16"],
  "bench.busyPoll": ["sometimes", true, 1],
  "bench.runs": [0, 2.5, 101, "three"],
  "bench.order": ["alternate", true],
  "bench.clientWarmup": ["yes", 1],
  "bench.minPromptAgreement": [1, -0.1, "50%"],
  "gate.minRoundScore": [0, -1, "1.1x", MISSING],
  "gate.use": ["median", "noise-floor"],
  "gate.maxUnscored": [1, -0.1, "10%"],
  "gate.minPrompts": [0, 2.5, "ten"],
  "gate.minAgreement": [1.5, -0.25, "75%"],
  "gate.maxUnexplained": [1, -0.1, "none"],
  "gate.regressionFloor": [0, 1.2, "80%"],
  "gate.maxRegressedPrompts": [1, -0.1, "10%"],
  "gate.calibration": ["", 5, "no-such-calibration.json"],
  "gate.maxRegression": [0, 1.5, "97%"],
  // "quality" without a quality: section to judge by.
  "gate.answers": ["judged", true, "quality"],
  "gate.quality.maxDrop": [1, -0.02, "2 points"],
  "quality.questions": ["", 5, "no-such-questions.jsonl"],
  "quality.scorer": ["numbers", { regex: "(unclosed" }, { pattern: "x" }],
  "quality.maxTokens": [0, 2.5, "lots"],
  "quality.concurrency": [0, "many"],
  "watch.maxDrift": [0, 1.2, "3%"],
  "watch.since": ["last week", { days: 0 }, { tag: "" }, { commit: "not-a-sha" }, { days: 7, tag: "v1" }],
  "watch.maxRepeats": [-1, 6, 1.5],
  "watch.explainShare": [0, 1.5, "half"],
  "watch.changePoint.enabled": ["yes", 1],
  "watch.changePoint.maxPValue": [0, 1.5, "5%"],
  "watch.changePoint.minSegment": [1, 51, 2.5],
  "watch.changePoint.minChange": [-0.1, "2%"],
  "watch.changePoint.permutations": [18, 10_000, "many"],
  scenarios: [
    [],
    "decode-c1",
    [{ concurrency: 1 }],
    [{ name: "-c1" }],
    [{ name: "a" }, { name: "a" }],
    [{ name: "both", concurrency: 2, requestIntervalMs: 5 }],
    [{ name: "long", maxTokens: 8192 }],
    [{ name: "synthetic", prompts: { synthetic: { inputTokens: 16, outputTokens: 8, count: 2 } } }],
    [{ name: "missing", prompts: "no-such-prompts.jsonl" }],
    [{ name: "typo", maxToken: 16 }],
  ],
  "docker.gpus": [0, "some", [], [""]],
  "docker.shmSize": ["lots", 16],
  "docker.memory": ["64 GB", 64, "150%", "all"],
  "docker.pidsLimit": [0, "many"],
  "docker.cpus": [0, "8 cores"],
  "docker.capAdd": ["SYS_ADMIN", ["ALL"], ["sys_ptrace"]],
  "docker.logMaxSize": ["lots", 64],
  "docker.logMaxFiles": [0, 1.5],
  "docker.ulimits": ["memlock=-1", [{ name: "memlock" }], [{ name: "", soft: 1, hard: 1 }]],
  "docker.network": ["bridge"],
  "docker.diskSize": ["lots", 100, "-1g", "10%"],
  "docker.mounts": [
    "/srv/models:/models",
    ["/srv/models"],
    ["/srv/models:models"],
    [{ source: "/srv/models" }],
    [{ source: "/srv/models", target: "/models", readOnly: "yes" }],
  ],
  "docker.ipc": ["none", true],
  "docker.entrypoint": ["vllm serve", [""]],
  "docker.stopTimeoutS": [0, "3s"],
  "docker.keepCandidateImage": ["no"],
  "build.timeoutS": [0, "1h"],
  "build.network": ["bridge", false],
  "source.revision": [
    "org.opencontainers.image.revision",
    { label: "" },
    { file: "HEAD" },
    { file: "/x/HEAD", pattern: "([0-9a-f" },
    { commit: "main" },
    { sha: "abc1234" },
  ],
  "source.paths": ["python/**", [""]],
  "source.compiledPaths": ["csrc/**", [42]],
  "source.build": ["pip install .", [[]]],
  "source.buildCache": ["ccache", "relative/cache"],
  "source.buildCacheHit": ["(unclosed", 5],
  "source.cacheBaseline": ["yes"],
};

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let current = target;
  for (const key of keys.slice(0, -1)) {
    const next = current[key];
    if (typeof next !== "object" || next === null || Array.isArray(next)) current[key] = {};
    current = current[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1] ?? "";
  if (value === MISSING) delete current[last];
  else current[last] = value;
}

interface CliCase {
  category: string;
  input: string;
  /** The config file's text (YAML; JSON is YAML). */
  configText: string;
  prompts?: string | Buffer;
  /** Written to the round folder and passed with --patch. */
  patch?: Buffer | "directory";
  /** What a clear message must mention (a field path, "line 3"), case-insensitive. */
  mentions: string;
}

async function listFiles(dir: string): Promise<string[]> {
  try {
    return await readdir(dir, { recursive: true });
  } catch {
    return [];
  }
}

const VALID_PROMPTS = ['{"id": "p1", "prompt": "hello"}', '{"id": "p2", "messages": [{"role": "user", "content": "hi"}]}'].join("\n");

/** Runs `speedgate run --config … --out …` in-process on one bad input and classifies the answer. */
async function runCliCase(root: string, index: number, item: CliCase): Promise<CorpusRow> {
  const dir = join(root, `case-${index}`);
  await mkdir(join(dir, "src"), { recursive: true });
  await writeFile(join(dir, "prompts.jsonl"), item.prompts ?? VALID_PROMPTS);
  await writeFile(join(dir, "round.yml"), item.configText);
  const out = join(dir, "out");
  const args = ["run", "--config", join(dir, "round.yml"), "--out", out];
  if (item.patch === "directory") {
    await mkdir(join(dir, "change.patch"));
    args.push("--patch", join(dir, "change.patch"));
  } else if (item.patch) {
    await writeFile(join(dir, "change.patch"), item.patch);
    args.push("--patch", join(dir, "change.patch"));
  }
  const logger = createRecordingLogger();
  const stdout = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  let code: number;
  try {
    code = await main(args, { logger, stdout });
  } catch (error) {
    return { category: item.category, input: item.input, outcome: "crash", message: `main threw: ${String(error)}` };
  }
  const message = logger.lines
    .filter((line) => line.level === "error")
    .map((line) => line.message)
    .join("\n");
  const written = await listFiles(out);
  const base = { category: item.category, input: item.input, message: firstLine(message) };
  if (written.length > 0)
    return { ...base, outcome: "accepted", message: `exit ${code}, wrote ${written.join(", ")} in --out; ${base.message}` };
  if (code === 0) return { ...base, outcome: "accepted", message: `exit 0; ${base.message}` };
  if (code !== 2) return { ...base, outcome: "crash", message: `exit ${code}: ${base.message}` };
  if (!message.toLowerCase().includes(item.mentions.toLowerCase())) {
    return { ...base, outcome: "crash", message: `unclear: does not mention ${JSON.stringify(item.mentions)}: ${base.message}` };
  }
  return { ...base, outcome: "clear" };
}

function configCases(): CliCase[] {
  const cases: CliCase[] = [];
  for (const [path, values] of Object.entries(WRONG_FIELD_VALUES)) {
    for (const value of values) {
      const config = baseConfig();
      setPath(config, path, value);
      const shown = value === MISSING ? "missing" : JSON.stringify(value);
      cases.push({
        category: "round config field",
        input: `${path}: ${shown}`,
        configText: JSON.stringify(config, null, 2),
        mentions: path,
      });
    }
  }
  const withBase = (change: (config: Record<string, unknown>) => void): string => {
    const config = baseConfig();
    change(config);
    return JSON.stringify(config, null, 2);
  };
  // A Docker round whose image is never reached: the path checks refuse it before anything starts.
  const withDocker = (change: (config: Record<string, unknown>) => void): string =>
    withBase((c) => {
      setPath(c, "runtime", "docker");
      setPath(c, "baseline.image", "speedgate-no-such-image:never");
      change(c);
    });
  cases.push(
    {
      category: "round config field",
      input: "unknown field bench.maxToken (typo)",
      configText: withBase((c) => setPath(c, "bench.maxToken", 16)),
      mentions: "bench.maxToken",
    },
    {
      category: "round config field",
      input: "bench.maxTokens above bench.contextLimit",
      configText: withBase((c) => setPath(c, "bench.maxTokens", 8192)),
      mentions: "bench.contextLimit",
    },
    {
      category: "round config field",
      input: "bench.prompts missing while a scenario sets no prompts of its own",
      configText: withBase((c) => {
        setPath(c, "bench.prompts", MISSING);
        setPath(c, "scenarios", [{ name: "chat" }, { name: "own", prompts: "prompts.jsonl" }]);
      }),
      mentions: "scenario chat",
    },
    {
      category: "round config field",
      input: "runtime: process without baseline.command",
      configText: withBase((c) => setPath(c, "baseline.command", MISSING)),
      mentions: "baseline.command",
    },
    {
      category: "round config field",
      input: "runtime: docker without baseline.image or build",
      configText: withBase((c) => {
        setPath(c, "runtime", "docker");
        setPath(c, "baseline.command", MISSING);
      }),
      mentions: "baseline.image",
    },
    {
      category: "round config field",
      input: "candidate.build and candidate.patch together",
      configText: withBase((c) => {
        setPath(c, "candidate.build", { context: "." });
        setPath(c, "candidate.patch", "change.patch");
      }),
      mentions: "candidate.build",
    },
    {
      category: "round config path",
      input: "candidate.sourceDir that does not exist",
      configText: withBase((c) => setPath(c, "candidate.sourceDir", "sglang")),
      mentions: "candidate.sourceDir",
    },
    {
      category: "round config path",
      input: "baseline.cwd that does not exist",
      configText: withBase((c) => setPath(c, "baseline.cwd", "src/python")),
      mentions: "baseline.cwd",
    },
    {
      category: "round config path",
      input: "candidate.cwd outside candidate.sourceDir",
      configText: withBase((c) => {
        setPath(c, "candidate.cwd", ".");
        setPath(c, "candidate.patch", "prompts.jsonl");
      }),
      mentions: "candidate.cwd",
    },
    {
      category: "round config path",
      input: "docker.mounts with a source that does not exist",
      configText: withDocker((c) => setPath(c, "docker.mounts", ["/nonexistent/speedgate-weights:/models"])),
      mentions: "docker.mounts[0].source",
    },
    {
      category: "round config path",
      input: "docker.mounts over candidate.sourceDir",
      configText: withDocker((c) => {
        setPath(c, "candidate.sourceDir", "/sgl-workspace/sglang");
        setPath(c, "docker.mounts", ["/srv:/sgl-workspace"]);
      }),
      mentions: "docker.mounts[0]",
    },
    {
      category: "round config path",
      input: "docker.mounts with runtime: process",
      configText: withBase((c) => setPath(c, "docker.mounts", ["/srv/models:/models"])),
      mentions: "docker.mounts",
    },
    {
      category: "round config file",
      input: "not YAML (unclosed bracket)",
      configText: "engine: [sglang\nruntime: process\n",
      mentions: "YAML",
    },
    { category: "round config file", input: "a key given twice", configText: "engine: a\nengine: b\n", mentions: "line 2" },
    {
      category: "round config file",
      input: "a key indented under a value",
      configText: "engine: sim\nruntime: process\n  port: 1\n",
      mentions: "indentation",
    },
    {
      category: "round config file",
      input: "a list instead of a mapping",
      configText: "- engine: sglang\n",
      mentions: "expected a YAML mapping",
    },
    { category: "round config file", input: "an empty file", configText: "", mentions: "expected a YAML mapping" },
    { category: "round config file", input: "binary bytes", configText: "\u0000\u0001\u0002\u00ff\u00fe", mentions: "round.yml" },
  );
  const validConfig = JSON.stringify(baseConfig(), null, 2);
  const prompts = (input: string, text: string | Buffer, mentions: string): CliCase => ({
    category: "prompts file",
    input,
    configText: validConfig,
    prompts: text,
    mentions,
  });
  cases.push(
    prompts("line 3 is not JSON", `${VALID_PROMPTS}\n{"id": "p3", "prompt": "unterminated}\n`, "line 3"),
    prompts("line 2 has no id", '{"id": "p1", "prompt": "a"}\n{"prompt": "b"}\n', "line 2"),
    prompts("line 2 repeats line 1's id", '{"id": "p1", "prompt": "a"}\n{"id": "p1", "prompt": "b"}\n', "line 2"),
    prompts(
      "line 2 sends line 1's messages again under another id",
      '{"id": "p1", "messages": [{"role": "user", "content": "a"}]}\n{"id": "p2", "messages": [{"role": "user", "content": "a"}], ' +
        '"maxTokens": 8}\n',
      "line 2",
    ),
    prompts(
      "line 2 has both messages and prompt",
      `{"id": "p1", "prompt": "a"}\n{"id": "p2", "prompt": "b", "messages": [{"role": "user", "content": "c"}]}\n`,
      "line 2",
    ),
    prompts("line 1 is a JSON array", '["p1", "hello"]\n', "line 1"),
    prompts("line 2 has maxTokens: 0", '{"id": "p1", "prompt": "a"}\n{"id": "p2", "prompt": "b", "maxTokens": 0}\n', "line 2"),
    prompts("line 2 has messages as a string", '{"id": "p1", "prompt": "a"}\n{"id": "p2", "messages": "hi"}\n', "line 2"),
    prompts("an empty file", "", "at least one prompt"),
    prompts("binary bytes", Buffer.from([0x00, 0xff, 0xfe, 0x7b, 0x0a, 0x00]), "line 1"),
  );
  const patch = (input: string, bytes: Buffer | "directory", mentions = "patch"): CliCase => ({
    category: "patch",
    input,
    configText: validConfig,
    patch: bytes,
    mentions,
  });
  const diffLine = "+x = 1  # padding to make the patch large\n";
  const huge = Buffer.from(
    `--- a/big.py\n+++ b/big.py\n@@ -0,0 +1,1250000 @@\n${diffLine.repeat(Math.ceil((50 * 1024 * 1024) / diffLine.length))}`,
  );
  cases.push(
    patch("an empty patch", Buffer.alloc(0), "empty"),
    patch("a binary patch (NUL bytes)", Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x10, 0x00])),
    patch(`a 50 MB patch (${(huge.length / 1024 / 1024).toFixed(0)} MiB)`, huge, "MiB"),
    patch("text that is not a diff", Buffer.from("please make it faster\n"), "unified diff"),
    // Broken files, not patches that miss the baseline: refused by --check and the run alike, with the line.
    patch("a hunk cut short (the last lines lost)", Buffer.from("--- a/src/x.py\n+++ b/src/x.py\n@@ -1,3 +1,3 @@\n a\n-b\n"), "cut short"),
    patch("a hunk with a line that is no hunk line", Buffer.from("--- a/src/x.py\n+++ b/src/x.py\n@@ -1,2 +1,2 @@\n a\nb\n+c\n"), "line 5"),
    patch("a hunk without a file header", Buffer.from("diff --git a/src/x.py b/src/x.py\n@@ -1 +1 @@\n-a\n+b\n"), "file header"),
    patch(
      "a hunk holding more lines than its header counts",
      Buffer.from("--- a/src/x.py\n+++ b/src/x.py\n@@ -1 +1 @@\n-a\n+b\n+c\n"),
      "line 6",
    ),
    patch("a folder instead of a file", "directory"),
  );
  return cases;
}

/** Round configs wrong in each field, prompts files with a bad line, bad patches: all through `speedgate run`. */
export async function runConfigInputs(): Promise<CorpusRow[]> {
  const root = await mkdtemp(join(tmpdir(), "speedgate-bad-input-"));
  try {
    const rows: CorpusRow[] = [];
    let index = 0;
    for (const item of configCases()) rows.push(await runCliCase(root, index++, item));
    return rows;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
