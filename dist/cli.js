#!/usr/bin/env node
import { createRequire as __speedgateCreateRequire } from 'node:module';
import { dirname as __speedgateDirname } from 'node:path';
import { fileURLToPath as __speedgateFileURLToPath } from 'node:url';
const require = __speedgateCreateRequire(import.meta.url);
const __filename = __speedgateFileURLToPath(import.meta.url);
const __dirname = __speedgateDirname(__filename);
import {
  ConfigError,
  RoundCancelledError,
  SPEEDGATE_VERSION,
  checkRound,
  cleanLogLine,
  countingSentence,
  createHfTokenizer,
  createProgressRenderer,
  describeFailureEvent,
  describeHolders,
  describeMemoryInUse,
  describeTimeChange,
  describeVerdict,
  explainCudaOom,
  external_exports,
  findCardFiles,
  findPackageRoot,
  formatMs,
  formatPercent,
  formatRate,
  formatRatio,
  formatScoreAgainstBar,
  formatTimes,
  integrityRows,
  loadRound,
  mergeScorecards,
  parsePrompts,
  processEngineCwd,
  promptReason,
  readGpuSnapshot,
  readScorecard,
  renderMarkdown,
  runRound,
  writeScorecard
} from "./chunks/chunk-JZHHHGAT.js";
import {
  require_docker
} from "./chunks/chunk-TM3QZYC6.js";
import {
  DEFAULT_STALE_AFTER_MS,
  sweepResources
} from "./chunks/chunk-ZNUQIOIV.js";
import {
  __toESM
} from "./chunks/chunk-BY2EMTJO.js";

// src/logger.ts
function createStderrLogger(options = {}) {
  const write = (prefix, message) => {
    process.stderr.write(`${prefix}${message}
`);
  };
  return {
    debug: (message) => {
      if (options.verbose) write("debug: ", message);
    },
    info: (message) => write("", message),
    warn: (message) => write("warning: ", message),
    error: (message) => write("error: ", message)
  };
}

// src/cli/command.ts
var UsageError = class extends Error {
  exitCode = 2;
  constructor(message) {
    super(message);
    this.name = "UsageError";
  }
};

// src/cli/commands/cleanup-command.ts
var import_dockerode = __toESM(require_docker(), 1);

// src/cli/parse-command-args.ts
import { parseArgs } from "node:util";
function parseCommandArgs(command, args, options, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(`speedgate ${command}: ${error.message}`);
  }
}

// src/cli/commands/cleanup-command.ts
var USAGE = `speedgate cleanup (--run-id ID | --stale) [--older-than-hours H] [--keep-images]

--run-id ID   remove the containers, networks and candidate images of one run
--stale       remove those of every run whose speedgate process is gone: on this host, its pid
              (with the process's start time, so a reused pid does not count) no longer runs;
              made on another host or without a pid, older than --older-than-hours (default ${DEFAULT_STALE_AFTER_MS / 36e5})
Baseline images are kept: runs share them and they are slow to rebuild.`;
var cleanupCommand = {
  name: "cleanup",
  summary: "remove the Docker containers, networks and images a run left behind",
  usage: USAGE,
  async run(args, context) {
    const { values } = parseCommandArgs("cleanup", args, {
      "run-id": { type: "string" },
      stale: { type: "boolean", default: false },
      "older-than-hours": { type: "string" },
      "keep-images": { type: "boolean", default: false }
    });
    const runId = values["run-id"];
    if (runId === void 0 === !values.stale) {
      throw new UsageError(`speedgate cleanup: expected exactly one of --run-id or --stale
usage: ${USAGE}`);
    }
    let staleAfterMs = DEFAULT_STALE_AFTER_MS;
    if (values["older-than-hours"] !== void 0) {
      const hours = Number(values["older-than-hours"]);
      if (!Number.isFinite(hours) || hours < 0) {
        throw new UsageError(`speedgate cleanup: --older-than-hours: expected a number of hours, 0 or more, got ${JSON.stringify(values["older-than-hours"])}`);
      }
      staleAfterMs = hours * 36e5;
    }
    const docker = new import_dockerode.default();
    try {
      await docker.ping();
    } catch (error) {
      context.logger.error(`speedgate cleanup: no Docker daemon answers (${error.message}); nothing was removed`);
      return 1;
    }
    const counts = await sweepResources(docker, runId !== void 0 ? { runId } : { stale: true }, context.logger, {
      keepCandidateImages: values["keep-images"],
      staleAfterMs
    });
    const what = runId !== void 0 ? `run ${runId}` : "stale runs";
    context.stdout.write(`removed ${counts.containers} container(s), ${counts.networks} network(s), ${counts.images} image(s) of ${what}
`);
    return 0;
  }
};

// src/cli/commands/demo-command.ts
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

// src/engine/find-free-port.ts
import { createServer } from "node:net";
async function findFreePort() {
  return await new Promise((resolve3, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve3(port));
    });
  });
}

// src/scorecard/render-text.ts
function pad(text, width) {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}
function columns(rows) {
  const widths = [];
  for (const row of rows) row.forEach((cell, index) => widths[index] = Math.max(widths[index] ?? 0, cell.length));
  return rows.map((row) => row.map((cell, index) => pad(cell, widths[index] ?? 0)).join("  ").trimEnd());
}
function renderText(card, options = {}) {
  const maxRows = options.maxPromptRows ?? 50;
  const maxLogLines = options.maxLogLines ?? 60;
  const out = [];
  out.push(describeVerdict(card).headline, "");
  const interval = card.scoreInterval ? ` (${Math.round(card.scoreInterval.confidence * 100)}% interval ${formatTimes(card.scoreInterval.low)}\u2013${formatTimes(card.scoreInterval.high)})` : "";
  out.push(
    ...columns([
      ["Round score", card.roundScore === null ? "\u2014" : `${formatScoreAgainstBar(card.roundScore, card.gate.minRoundScore)}${interval}`],
      ["Prompts scored", `${card.promptsScored} / ${card.promptsTotal}`],
      ["Below tolerance", `${card.belowTolerance} (answered too little to score)`],
      ["Zeroed total", `${card.zeroedTotal} (scored 0.0 without measuring)`],
      ...integrityRows(card),
      ...card.excluded > 0 ? [["Excluded", `${card.excluded} (baseline failed on them)`]] : [],
      ["Gate", `${card.gate.passed ? "passes" : "does not pass"}: ${card.gate.reason}`]
    ])
  );
  const s = card.settings;
  out.push(
    "",
    `Settings: request interval ${s.requestIntervalMs} ms${s.arrival === "poisson" ? " (Poisson)" : ""}, thinking ${s.thinking ? "on" : "off"}, context limit ${s.contextLimit}, max tokens ${s.maxTokens}, tolerance ${formatPercent(s.tolerance)}`
  );
  if (card.tokenCountsEstimated) out.push("Token counts are estimates: the server did not report them per chunk.");
  const counting = countingSentence(card);
  if (counting) out.push(counting);
  const metrics = card.metrics;
  if (metrics) {
    const row = (label, metric) => [
      `  ${label}`,
      `${formatMs(metrics.baseline[metric].median)} / ${formatMs(metrics.baseline[metric].p90)} / ${formatMs(metrics.baseline[metric].p99)}`,
      `${formatMs(metrics.candidate[metric].median)} / ${formatMs(metrics.candidate[metric].p90)} / ${formatMs(metrics.candidate[metric].p99)}`,
      `${formatRatio(metrics.ratio[metric].median)} / ${formatRatio(metrics.ratio[metric].p90)} / ${formatRatio(metrics.ratio[metric].p99)}`
    ];
    out.push(
      "",
      `Where the speed came from (${metrics.prompts} scored prompts, at equal length): prefill ${describeTimeChange(metrics.ratio.ttftMs.median)}, decode ${describeTimeChange(metrics.ratio.tpotMs.median)} per token`,
      ...columns([
        ["  ms", "baseline p50/p90/p99", "candidate p50/p90/p99", "candidate \xF7 baseline"],
        row("TTFT", "ttftMs"),
        row("TPOT", "tpotMs"),
        row("ITL", "itlMs"),
        row("E2E at k", "e2eMs"),
        ["  output tok/s", formatRate(metrics.baseline.outputTokensPerS), formatRate(metrics.candidate.outputTokensPerS), formatRatio(metrics.ratio.outputTokensPerS)],
        ["  requests/s", formatRate(metrics.baseline.requestsPerS), formatRate(metrics.candidate.requestsPerS), formatRatio(metrics.ratio.requestsPerS)]
      ])
    );
  }
  const failure = card.failure;
  if (failure) {
    const oom = explainCudaOom(card);
    out.push(
      "",
      `${describeFailureEvent(failure)}`,
      ...oom ? [`${oom.lead} ${oom.text}`] : [],
      ...columns([
        ["  engine", failure.engine],
        ["  stage", failure.stage],
        ["  kind", `${failure.kind} (${failure.label})`],
        ["  exit", failure.exitCode !== null ? String(failure.exitCode) : failure.signal ?? "\u2014"],
        ["  summary", failure.summary],
        ["  hint", failure.hint]
      ])
    );
    if (failure.logTail.length > 0) {
      const shown = failure.logTail.slice(-maxLogLines);
      out.push("", `Log tail (last ${shown.length} of ${failure.logTail.length} lines):`, ...shown.map((line) => `  | ${cleanLogLine(line)}`));
    }
  }
  if (card.prompts.length > 0) {
    const shown = card.prompts.slice(0, maxRows);
    out.push(
      "",
      ...columns([
        ["prompt", "status", "score", "tokens b/c", "e2e ms b/c", "reason"],
        ...shown.map((prompt) => [
          prompt.id,
          prompt.status,
          prompt.score === null ? "\u2014" : formatTimes(prompt.score),
          `${prompt.baseline?.outputTokens ?? "\u2014"}/${prompt.candidate?.outputTokens ?? "\u2014"}`,
          `${formatMs(prompt.baseline?.e2eMs ?? null)}/${formatMs(prompt.candidate?.e2eMs ?? null)}`,
          promptReason(prompt, card)
        ])
      ])
    );
    if (card.prompts.length > shown.length) out.push(`\u2026 ${card.prompts.length - shown.length} more prompts in scorecard.json`);
  }
  for (const role of ["baseline", "candidate"]) {
    const snapshot = card.gpuState?.[role];
    if (snapshot === void 0) continue;
    const reading = readGpuSnapshot(snapshot);
    const state = reading.readable ? `${describeMemoryInUse(reading)}; ${reading.processes.length === 0 ? "no process listed" : describeHolders(reading.processes)}` : `not read (${snapshot?.error ?? "the engine did not start"})`;
    out.push(`GPU before the ${role} started: ${state}`);
  }
  const p = card.provenance;
  out.push("", `Engine ${card.engine}; image digest ${p.imageDigest ?? "\u2014"}; patch hash ${p.patchHash ?? "\u2014"}; runner ${p.runner ?? "\u2014"}; GPU ${p.gpu ?? "\u2014"}`);
  return `${out.join("\n")}
`;
}

// src/cli/render-round-plan.ts
import { isAbsolute, relative } from "node:path";
function showCommand(command, config) {
  const host = config.docker.network === "host" ? "127.0.0.1" : "0.0.0.0";
  return command.map(
    (argument) => argument.replaceAll("{port}", String(config.port)).replaceAll("{contextLimit}", String(config.bench.contextLimit)).replaceAll("{model}", config.bench.model).replaceAll("{host}", config.runtime === "docker" ? host : "{host}").replaceAll("{node}", "node").replaceAll("{speedgate}", "speedgate")
  ).map((argument) => argument === "" || /[\s"'\\$`]/.test(argument) ? JSON.stringify(argument) : argument).join(" ");
}
function showBuild(build) {
  const args = Object.keys(build.args);
  return `built from ${build.context} (${build.dockerfile}${args.length > 0 ? `, build args ${args.join(", ")}` : ""})`;
}
function showEnv(env) {
  const names = Object.keys(env ?? {});
  return names.length === 0 ? "none from the config" : names.join(", ");
}
function engineLines(role, check) {
  const { config, configPath, patch } = check.round;
  const lines = [];
  const command = role === "candidate" ? config.candidate.command ?? config.baseline.command : config.baseline.command;
  if (config.runtime === "docker") {
    if (role === "baseline") {
      lines.push(config.baseline.build ? showBuild(config.baseline.build) : `image ${config.baseline.image ?? "?"}`);
    } else if (config.candidate.build) {
      lines.push(showBuild(config.candidate.build));
    } else {
      const postPatch = config.candidate.postPatch.length;
      const steps = `${postPatch > 0 ? `, then ${postPatch} postPatch command${postPatch === 1 ? "" : "s"}` : ""}`;
      const where = config.candidate.sourceDir ?? "the image's WORKDIR";
      lines.push(
        patch || config.candidate.patch ? `the baseline image with the patch applied in ${where} (an overlay build${steps})` : config.candidate.sourceDir ? `the baseline image with the patch applied in ${where} (an overlay build${steps}); the patch comes from --patch or the action's patch input, and without one the candidate is the baseline unpatched` : "the baseline image, unpatched (no candidate.patch, candidate.sourceDir or candidate.build)"
      );
    }
    const entrypoint = config.docker.entrypoint;
    const through = entrypoint === void 0 ? " (after the image's ENTRYPOINT, if it has one)" : entrypoint.length === 0 ? " (the image's ENTRYPOINT cleared)" : ` (after the ENTRYPOINT ${showCommand(entrypoint, config)})`;
    lines.push(`runs: ${command ? `${showCommand(command, config)}${through}` : "the image's own CMD"}`);
    const cwd = role === "candidate" ? config.candidate.cwd ?? config.baseline.cwd : config.baseline.cwd;
    lines.push(`in: ${cwd ?? "the image's WORKDIR"}`);
  } else {
    const patched = role === "candidate" && config.candidate.sourceDir && (patch || config.candidate.patch);
    if (patched) lines.push(`a copy of ${config.candidate.sourceDir} with the patch applied`);
    lines.push(`runs: ${command ? showCommand(command, config) : "?"}`);
    const marker = "<copy>";
    const cwd = processEngineCwd(role, config, configPath, patched ? marker : null);
    const offset = cwd.slice(marker.length + 1);
    const shown = !cwd.startsWith(marker) ? cwd : offset === "" ? `the root of its patched copy of ${config.candidate.sourceDir ?? "?"}` : `${offset}/ in its patched copy of ${config.candidate.sourceDir ?? "?"}`;
    lines.push(`in: ${shown}`);
  }
  const env = role === "candidate" ? { ...config.baseline.env, ...config.candidate.env } : config.baseline.env;
  lines.push(`environment: ${showEnv(env)}`);
  return lines;
}
function containerLines(config) {
  const { docker } = config;
  const gpus = docker.gpus === void 0 ? "none (docker.gpus is not set)" : Array.isArray(docker.gpus) ? `devices ${docker.gpus.join(", ")}` : String(docker.gpus);
  const shm = docker.ipc === "host" ? "the host's /dev/shm (ipc: host)" : docker.shmSize;
  const lines = [
    `GPUs: ${gpus}; shared memory: ${shm}; IPC: ${docker.ipc ?? "the daemon's default (private)"}`,
    `network: ${docker.network === "isolated" ? "isolated (a per-run internal network, no internet)" : "host"}`
  ];
  if (docker.mounts.length === 0) lines.push("mounts: none");
  for (const mount of docker.mounts) lines.push(`mount: ${mount.source} -> ${mount.target} (${mount.readOnly ? "read-only" : "writable"})`);
  return lines;
}
function runnerPrerequisites(check) {
  const { config } = check.round;
  const needs = [];
  if (config.runtime === "docker") {
    needs.push("a Docker daemon the runner's user can reach");
    if (config.docker.gpus !== void 0) needs.push(`GPUs for containers (the NVIDIA Container Toolkit): docker.gpus: ${Array.isArray(config.docker.gpus) ? config.docker.gpus.join(", ") : config.docker.gpus}`);
    if (config.baseline.image && !config.baseline.build) needs.push(`the image ${config.baseline.image}, or access to pull it`);
  }
  for (const entry of check.paths.filter((path) => path.onRunner)) needs.push(describeRunnerPath(entry));
  return needs;
}
function describeRunnerPath(entry) {
  const state = entry.problem === null ? "present on this machine" : `not on this machine (${entry.problem === "does not exist" ? "checked when the round runs" : entry.problem})`;
  return `${entry.path} (${entry.field}, ${entry.purpose}): ${state}`;
}
function notes(check) {
  const { config, prompts } = check.round;
  const found = [];
  if (config.runtime === "docker" && config.docker.gpus === void 0) {
    found.push("docker.gpus is not set: the engines start without a GPU (set it to all, a count or device ids)");
  }
  config.docker.mounts.forEach((mount, index) => {
    if (!mount.readOnly) found.push(`docker.mounts[${index}] is writable: the candidate can change what the next round's engines read there`);
  });
  if (config.runtime === "process" && config.candidate.sourceDir && !config.candidate.cwd && config.baseline.cwd) {
    const offset = relative(config.candidate.sourceDir, config.baseline.cwd);
    if (offset.startsWith("..") || isAbsolute(offset)) {
      found.push("baseline.cwd is outside candidate.sourceDir: the candidate runs at the root of its patched copy; set candidate.cwd if it should run elsewhere in it");
    }
  }
  const promptsPath = check.paths.find((entry) => entry.field === "bench.prompts");
  if (promptsPath?.problem) found.push(`the prompts (${promptsPath.path}) are on the runner only: not validated here`);
  else if (prompts.length === 0) found.push("the prompts file has no prompts");
  return found;
}
function renderRoundPlan(check) {
  const { config, configPath, prompts, patch } = check.round;
  const { bench, gate, health } = config;
  const promptsPath = check.paths.find((entry) => entry.field === "bench.prompts");
  const section = (title, lines) => [title, ...lines.map((line) => `  ${line}`)].join("\n");
  const out = [
    `speedgate run --check: ${configPath} is valid; nothing was started.`,
    section("Round", [
      `engine ${config.engine}, runtime ${config.runtime}, port ${config.port}`,
      promptsPath?.problem ? `prompts: ${bench.prompts} (on the runner)` : `prompts: ${prompts.length} from ${bench.prompts}, up to ${bench.maxTokens} tokens each, one every ${bench.requestIntervalMs} ms (${bench.arrival}), ${bench.warmupRequests} warm-up`,
      patch ? `patch: ${patch.path} (${patch.bytes.length} bytes, sha256 ${patch.sha256.slice(0, 16)}\u2026)` : config.candidate.patch ? `patch: ${config.candidate.patch} (on the runner)` : "patch: none here (--patch or the action's patch input supplies it)",
      `gate: ${gate.use === "interval-low" ? "the 95% interval's low end" : "the round score"} at least ${gate.minRoundScore}\xD7; a prompt scores only with at least ${Math.round(bench.tolerance * 1e3) / 10}% of the baseline's tokens`,
      `health: GET ${health.path} every ${health.intervalMs} ms until 200, for up to ${health.timeoutS} s`
    ]),
    section("Baseline", engineLines("baseline", check)),
    section("Candidate", engineLines("candidate", check)),
    ...config.runtime === "docker" ? [section("Containers", containerLines(config))] : []
  ];
  const needs = runnerPrerequisites(check);
  out.push(section("The runner must have", needs.length > 0 ? needs : ["nothing beyond this machine's files (all checked)"]));
  const found = notes(check);
  if (found.length > 0) out.push(section("Notes", found));
  return `${out.join("\n\n")}
`;
}

// src/cli/commands/run-command.ts
function renderCard(card, format) {
  if (format === "md") return renderMarkdown(card);
  return renderText(card);
}
function checkFormat(command, format) {
  if (format !== "md" && format !== "text") throw new UsageError(`speedgate ${command}: --format: expected md or text, got ${JSON.stringify(format)}`);
}
async function runAndReport(round, options, context) {
  const progress = createProgressRenderer(process.stderr);
  let card;
  try {
    card = await runRound({
      round,
      logger: context.logger,
      signal: context.signal,
      ...options.runId ? { runId: options.runId } : {},
      onProgress: progress.onProgress
    });
  } catch (error) {
    progress.finish();
    if (error instanceof RoundCancelledError) {
      context.logger.error(error.message);
      return 130;
    }
    throw error;
  }
  progress.finish();
  const { jsonPath, markdownPath } = await writeScorecard(options.outDir, card);
  context.stdout.write(renderCard(card, options.format));
  context.logger.info(`wrote ${jsonPath} and ${markdownPath}`);
  return options.failOnGate && !describeVerdict(card).passed ? 1 : 0;
}
var runCommand = {
  name: "run",
  summary: "run a round (baseline, then the patched candidate) and write the score card",
  usage: "speedgate run --config <round.yml> (--out <dir> | --check) [--patch <file>] [--fail-on-gate] [--format text|md] [--run-id ID]",
  async run(args, context) {
    const { values } = parseCommandArgs("run", args, {
      config: { type: "string" },
      out: { type: "string" },
      patch: { type: "string" },
      "fail-on-gate": { type: "boolean", default: false },
      format: { type: "string", default: "text" },
      "run-id": { type: "string" },
      check: { type: "boolean", default: false }
    });
    if (!values.config) throw new UsageError(`speedgate run: --config is required
usage: ${this.usage}`);
    if (values.check) {
      context.stdout.write(renderRoundPlan(await checkRound(values.config, values.patch ? { patchPath: values.patch } : {})));
      return 0;
    }
    if (!values.out) throw new UsageError(`speedgate run: --out is required
usage: ${this.usage}`);
    checkFormat("run", values.format);
    const round = await loadRound(values.config, values.patch ? { patchPath: values.patch } : {});
    return await runAndReport(
      round,
      { outDir: values.out, format: values.format, failOnGate: values["fail-on-gate"], ...values["run-id"] ? { runId: values["run-id"] } : {} },
      context
    );
  }
};

// src/cli/commands/demo-command.ts
function demoRoundPath() {
  return join(findPackageRoot(), "examples", "demo", "round.yml");
}
var demoCommand = {
  name: "demo",
  summary: "score the embedded demo patch against the reference engine (needs only Node)",
  usage: "speedgate demo [--out <dir>] [--format text|md]",
  async run(args, context) {
    const { values } = parseCommandArgs("demo", args, {
      out: { type: "string" },
      format: { type: "string", default: "text" }
    });
    checkFormat("demo", values.format);
    const loaded = await loadRound(demoRoundPath());
    const round = { ...loaded, config: { ...loaded.config, port: await findFreePort() } };
    const outDir = values.out ?? await mkdtemp(join(tmpdir(), "speedgate-demo-"));
    context.logger.info(`speedgate demo: ${round.prompts.length} prompts, baseline ./examples/demo/engine, candidate with faster.patch`);
    return await runAndReport(round, { outDir, format: values.format, failOnGate: false }, context);
  }
};

// src/cli/commands/merge-command.ts
var mergeCommand = {
  name: "merge",
  summary: "combine the cards of a sharded round into one, recomputing the score from every prompt",
  usage: "speedgate merge <scorecard.json | folder | glob>... [--out <dir>] [--format text|md|json] [--fail-on-gate]",
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      "merge",
      args,
      { out: { type: "string" }, format: { type: "string", default: "text" }, "fail-on-gate": { type: "boolean", default: false } },
      true
    );
    if (positionals.length === 0) throw new UsageError(`usage: ${this.usage}`);
    const format = values.format;
    if (format !== "text" && format !== "md" && format !== "json") {
      throw new UsageError(`speedgate merge: --format: expected md, json or text, got ${JSON.stringify(format)}`);
    }
    const files = await findCardFiles(positionals, "speedgate merge");
    const cards = [];
    for (const file of files) cards.push(await readScorecard(file));
    const merged = mergeScorecards(cards, { labels: files });
    if (values.out) {
      const written = await writeScorecard(values.out, merged);
      context.logger.info(`Merged ${files.length} shard cards into ${written.jsonPath}`);
    }
    if (format === "md") context.stdout.write(renderMarkdown(merged));
    else if (format === "json") context.stdout.write(`${JSON.stringify(merged, null, 2)}
`);
    else context.stdout.write(renderText(merged));
    return values["fail-on-gate"] && !describeVerdict(merged).passed ? 1 : 0;
  }
};

// src/cli/commands/render-command.ts
var renderCommand = {
  name: "render",
  summary: "print a score card from scorecard.json",
  usage: "speedgate render <scorecard.json> [--format md|json|text]",
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      "render",
      args,
      { format: { type: "string", default: "text" } },
      true
    );
    const path = positionals[0];
    if (!path || positionals.length > 1) throw new UsageError(`usage: ${this.usage}`);
    const card = await readScorecard(path);
    const format = values.format;
    if (format === "md") context.stdout.write(renderMarkdown(card));
    else if (format === "json") context.stdout.write(`${JSON.stringify(card, null, 2)}
`);
    else if (format === "text") context.stdout.write(renderText(card));
    else throw new UsageError(`speedgate render: --format: expected md, json or text, got ${JSON.stringify(format)}`);
    return 0;
  }
};

// src/cli/commands/sim-engine-command.ts
import { readFile as readFile2 } from "node:fs/promises";
import { dirname, resolve as resolve2 } from "node:path";

// src/sim-engine/sim-integrity-profile.ts
var answerSchema = external_exports.strictObject(
  {
    divergeAfterTokens: external_exports.number({ error: "expected a whole number of tokens, 0 or more, or null" }).int({ error: "expected a whole number of tokens, 0 or more, or null" }).min(0, { error: "expected a whole number of tokens, 0 or more, or null" }).nullable().default(null)
  },
  { error: "expected an object such as { divergeAfterTokens: 200 }" }
);
var cheatsSchema = external_exports.strictObject(
  {
    /** Streams the first token only, then reports the full length in usage. */
    claimTokens: external_exports.boolean({ error: "expected true or false" }).default(false),
    /** Reports usage this many times the tokens streamed. */
    usageFactor: external_exports.number({ error: "expected a factor, 1 or more" }).min(1, { error: "expected a factor, 1 or more" }).default(1),
    /** Streams one word over and over instead of the answer. */
    fillerText: external_exports.boolean({ error: "expected true or false" }).default(false),
    /** Streams the honest answer for this many tokens, then filler ten times as fast; null: never. */
    fillerAfterTokens: external_exports.number({ error: "expected a whole number of tokens, 0 or more, or null" }).int({ error: "expected a whole number of tokens, 0 or more, or null" }).min(0, { error: "expected a whole number of tokens, 0 or more, or null" }).nullable().default(null),
    /** Answers this many times faster when a request names its prompt (a header or the user field). */
    promptIdSpeedup: external_exports.number({ error: "expected a factor greater than 0, or null" }).gt(0).nullable().default(null)
  },
  { error: "expected an object of cheats: claimTokens, usageFactor, fillerText, fillerAfterTokens, promptIdSpeedup" }
);
var DEFAULT_ANSWER = { divergeAfterTokens: null };
var NO_CHEATS = { claimTokens: false, usageFactor: 1, fillerText: false, fillerAfterTokens: null, promptIdSpeedup: null };
var LATE_FILLER_SPEEDUP = 10;
function answerStyle(answer, cheats) {
  return { filler: cheats.fillerText, divergeAfterTokens: answer.divergeAfterTokens, fillerAfterTokens: cheats.fillerAfterTokens };
}
var PROMPT_ID_HINTS = ["x-speedgate-prompt-id", "x-prompt-id", "x-request-id"];
function findPromptIdHint(headers, body) {
  for (const name of PROMPT_ID_HINTS) {
    const value = headers[name];
    if (typeof value === "string" && value.length > 0) return `${name}: ${value}`;
  }
  for (const field of ["user", "prompt_id", "metadata"]) {
    const value = body[field];
    if (value !== void 0 && value !== null && value !== "") return `${field}: ${JSON.stringify(value)}`;
  }
  return null;
}

// src/sim-engine/sim-profile.ts
var nonNegative = (expected) => external_exports.number({ error: expected }).min(0, { error: expected });
var wholeAtLeast = (min, expected) => external_exports.number({ error: expected }).int({ error: expected }).min(min, { error: expected });
var promptIds = external_exports.array(external_exports.string({ error: "expected prompt ids as strings" }), { error: "expected a list of prompt ids" });
var timingSchema = external_exports.strictObject(
  {
    ttftMs: nonNegative("expected milliseconds to the first token, 0 or more"),
    itlMs: nonNegative("expected milliseconds between tokens, 0 or more"),
    outputTokens: wholeAtLeast(0, "expected a whole number of output tokens, 0 or more"),
    reasoningTokens: wholeAtLeast(0, "expected a whole number of reasoning tokens, 0 or more"),
    tokensPerChunk: wholeAtLeast(1, "expected a whole number of tokens per streamed chunk, 1 or more")
  },
  { error: "expected an object with ttftMs, itlMs, outputTokens, reasoningTokens, tokensPerChunk" }
);
var faultsSchema = external_exports.strictObject(
  {
    crashAtStart: external_exports.strictObject(
      {
        logFile: external_exports.string({ error: "expected the path of a log file to print" }).optional(),
        exitCode: wholeAtLeast(0, "expected an exit code, 0 or more").default(1)
      },
      { error: "expected { logFile, exitCode }" }
    ).nullable().default(null),
    neverHealthy: external_exports.boolean({ error: "expected true or false" }).default(false),
    startupDelayMs: nonNegative("expected milliseconds, 0 or more").default(0),
    dieAfterRequests: wholeAtLeast(1, "expected a whole number of requests, 1 or more").nullable().default(null),
    dieExitCode: wholeAtLeast(0, "expected an exit code, 0 or more").default(1),
    stopEarly: promptIds.default([]),
    stopEarlyFraction: external_exports.number({ error: "expected a fraction in [0, 1)" }).min(0).lt(1).default(0.25),
    http500: promptIds.default([]),
    malformedSse: promptIds.default([])
  },
  { error: "expected an object of fault settings" }
);
var simProfileSchema = external_exports.strictObject(
  {
    model: external_exports.string({ error: "expected the served model name" }).min(1).default("sim-model"),
    /** JSONL prompts (the round's format) that map a request's content to a prompt id, relative to the profile. */
    promptsFile: external_exports.string({ error: "expected the path of a JSONL prompts file" }).min(1).optional(),
    /** A tokenizer.json whose whole-word tokens the engine streams, relative to the profile. */
    tokenizer: external_exports.string({ error: "expected the path of a tokenizer.json" }).min(1).optional(),
    answer: answerSchema.default(DEFAULT_ANSWER),
    cheats: cheatsSchema.default(NO_CHEATS),
    flavour: external_exports.enum(["sglang", "vllm"], { error: 'expected "sglang" or "vllm"' }).default("sglang"),
    usagePerChunk: external_exports.boolean({ error: "expected true or false" }).default(false),
    defaults: timingSchema.partial().default({}),
    prompts: external_exports.record(external_exports.string(), timingSchema.partial(), { error: "expected a map of prompt id to timings" }).default({}),
    faults: faultsSchema.default({
      crashAtStart: null,
      neverHealthy: false,
      startupDelayMs: 0,
      dieAfterRequests: null,
      dieExitCode: 1,
      stopEarly: [],
      stopEarlyFraction: 0.25,
      http500: [],
      malformedSse: []
    })
  },
  { error: "expected a JSON object with model, flavour, defaults, prompts and faults" }
);
var DEFAULT_TIMING = { ttftMs: 20, itlMs: 5, outputTokens: 32, reasoningTokens: 0, tokensPerChunk: 1 };
function planResponse(profile, promptId, maxTokens, thinking) {
  const override = promptId !== null ? profile.prompts[promptId] : void 0;
  const timing = { ...DEFAULT_TIMING, ...profile.defaults, ...override };
  const faults = profile.faults;
  const reasoningWanted = thinking ? timing.reasoningTokens : 0;
  let wanted = reasoningWanted + timing.outputTokens;
  let finishReason = "stop";
  if (promptId !== null && faults.stopEarly.includes(promptId)) {
    wanted = Math.max(1, Math.floor(wanted * faults.stopEarlyFraction));
  }
  if (wanted > maxTokens) {
    wanted = maxTokens;
    finishReason = "length";
  }
  const reasoningTokens = Math.min(reasoningWanted, wanted);
  let fault = null;
  if (promptId !== null && faults.http500.includes(promptId)) fault = "http500";
  else if (promptId !== null && faults.malformedSse.includes(promptId)) fault = "malformed_sse";
  return {
    ttftMs: timing.ttftMs,
    itlMs: timing.itlMs,
    tokensPerChunk: timing.tokensPerChunk,
    reasoningTokens,
    contentTokens: wanted - reasoningTokens,
    finishReason,
    fault
  };
}

// src/sim-engine/load-sim-inputs.ts
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";

// src/sim-engine/token-text.ts
var CONTENT_TOKENS = [" The", " engine", " answers", " \xE9", " \u4E2D", " \u{1F642}", " fast", "."];
var REASONING_TOKENS = [" Let", " me", " think", " \xFC", " \u601D", " \u{1F914}"];

// src/sim-engine/answer-text.ts
var BUILT_IN_WORDS = { content: CONTENT_TOKENS, reasoning: REASONING_TOKENS };
function word(list, index) {
  return list[index % list.length] ?? " x";
}
function answerToken(words, style, kind, index, answerIndex) {
  const list = kind === "content" ? words.content : words.reasoning;
  if (style.filler || style.fillerAfterTokens != null && answerIndex >= style.fillerAfterTokens) return word(list, 1);
  if (style.divergeAfterTokens !== null && answerIndex >= style.divergeAfterTokens) return word(list, index + 1);
  return word(list, index);
}
function answerRun(words, style, kind, from, to, offset) {
  let text = "";
  for (let index = from; index < to; index++) text += answerToken(words, style, kind, index, offset + index);
  return text;
}

// src/sim-engine/pick-tokenizer-words.ts
var WHOLE_WORD = new RegExp("^ \\p{L}+$", "u");
var MAX_WORDS = 2048;
function pickTokenizerWords(json, source) {
  const tokenizer = createHfTokenizer(json);
  const special = new Set(tokenizer.get_added_tokens_decoder().keys());
  const ids = [...tokenizer.get_vocab(false).values()].filter((id) => !special.has(id)).sort((a, b) => a - b);
  const words = [];
  for (const id of ids) {
    const text = tokenizer.decode([id], { skip_special_tokens: true, clean_up_tokenization_spaces: false });
    if (!WHOLE_WORD.test(text)) continue;
    const encoded = tokenizer.encode(text, { add_special_tokens: false }).ids;
    if (encoded.length === 1 && encoded[0] === id) words.push(text);
    if (words.length >= MAX_WORDS) break;
  }
  if (words.length < 4) throw new Error(`${source}: the tokenizer has no whole-word tokens (" word") the sim-engine can stream`);
  const sample = words.slice(0, 256);
  const together = tokenizer.encode(sample.join(""), { add_special_tokens: false }).ids.length;
  if (together !== sample.length) {
    throw new Error(`${source}: ${sample.length} whole-word tokens streamed together re-tokenize to ${together}: the sim-engine cannot stream text of this tokenizer exactly`);
  }
  return { content: words.filter((_, index) => index % 2 === 0), reasoning: words.filter((_, index) => index % 2 === 1) };
}

// src/sim-engine/load-sim-inputs.ts
async function readText(path, what) {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new ConfigError(`${what}: cannot read ${path} (${error.code ?? error.message})`);
  }
}
async function loadSimInputs(profile, baseDir) {
  let prompts = [];
  if (profile.promptsFile) {
    const path = resolve(baseDir, profile.promptsFile);
    prompts = parsePrompts(await readText(path, "promptsFile"), path);
  }
  let words = BUILT_IN_WORDS;
  if (profile.tokenizer) {
    const path = resolve(baseDir, profile.tokenizer);
    try {
      words = pickTokenizerWords(JSON.parse(await readText(path, "tokenizer")), path);
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      throw new ConfigError(`tokenizer: ${error.message}`);
    }
  }
  return { prompts, words };
}

// src/sim-engine/start-sim-engine.ts
import { createWriteStream } from "node:fs";
import { createServer as createServer2 } from "node:http";
import { performance as performance2 } from "node:perf_hooks";

// src/bench/monotonic-clock.ts
import { performance } from "node:perf_hooks";
function measureMonotonicOffsetMs() {
  let best = Number.POSITIVE_INFINITY;
  let offset = 0;
  for (let attempt = 0; attempt < 50; attempt++) {
    const before = performance.now();
    const shared = Number(process.hrtime.bigint()) / 1e6;
    const after = performance.now();
    if (after - before < best) {
      best = after - before;
      offset = shared - (before + after) / 2;
    }
  }
  return offset;
}
var cachedOffset = null;
function monotonicOffsetMs() {
  cachedOffset ??= measureMonotonicOffsetMs();
  return cachedOffset;
}

// src/sim-engine/match-prompt.ts
function promptContentKey(body) {
  if (body.messages !== void 0) return `messages:${JSON.stringify(body.messages)}`;
  if (typeof body.prompt === "string") return `prompt:${body.prompt}`;
  return null;
}
function createPromptMatcher(prompts) {
  const byContent = /* @__PURE__ */ new Map();
  const duplicates = [];
  for (const prompt of prompts) {
    const key = promptContentKey(prompt.messages ? { messages: prompt.messages } : { prompt: prompt.prompt ?? "" });
    if (key === null) continue;
    if (byContent.has(key)) duplicates.push(prompt.id);
    else byContent.set(key, prompt.id);
  }
  return { match: (body) => byContent.get(promptContentKey(body) ?? "") ?? null, duplicates };
}

// src/sim-engine/start-sim-engine.ts
var READY_LINE = "The server is fired up and ready to roll!";
var MAX_BODY_BYTES = 16 * 1024 * 1024;
function promptTokenEstimate(body) {
  const source = body.messages ?? body.prompt ?? "";
  return Math.max(1, Math.ceil(JSON.stringify(source).length / 4));
}
function readMaxTokens(body) {
  for (const key of ["max_completion_tokens", "max_tokens"]) {
    const value = body[key];
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) return Math.floor(value);
  }
  return Number.MAX_SAFE_INTEGER;
}
function readThinking(body) {
  const kwargs = body.chat_template_kwargs;
  if (kwargs && typeof kwargs === "object" && "enable_thinking" in kwargs) return kwargs.enable_thinking !== false;
  return true;
}
function sendJson(res, status, payload) {
  const text = JSON.stringify(payload);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
async function startSimEngine(options = {}) {
  const profile = simProfileSchema.parse(options.profile ?? {});
  const { faults } = profile;
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? (() => void 0);
  const keepRecords = options.keepRecords ?? true;
  const loaded = options.prompts && options.words ? null : await loadSimInputs(profile, options.baseDir ?? process.cwd());
  const prompts = createPromptMatcher(options.prompts ?? loaded?.prompts ?? []);
  const words = options.words ?? loaded?.words ?? BUILT_IN_WORDS;
  const style = answerStyle(profile.answer, profile.cheats);
  const { cheats } = profile;
  if (prompts.duplicates.length > 0) log(`sim-engine: prompts ${prompts.duplicates.join(", ")} repeat an earlier prompt's content and get its profile entry`);
  const offset = monotonicOffsetMs();
  const startedAt = performance2.now();
  const writeLog = { requests: [] };
  const chunkLog = options.chunkLogPath ? createWriteStream(options.chunkLogPath, { flags: "a" }) : null;
  const active = /* @__PURE__ */ new Set();
  const sockets = /* @__PURE__ */ new Set();
  let seq = 0;
  let completed = 0;
  let dead = false;
  let healthy = false;
  let markHealthy = () => void 0;
  const healthyPromise = new Promise((resolve3) => {
    markHealthy = resolve3;
  });
  let startupTimer = null;
  const created = Math.floor(Date.now() / 1e3);
  const finishRecord = (record, outcome) => {
    if (record.finishedAtMs !== null) return;
    record.finishedAtMs = performance2.now() + offset;
    record.outcome = outcome;
    chunkLog?.write(`${JSON.stringify(record)}
`);
  };
  const die = () => {
    if (dead) return;
    dead = true;
    log(`RuntimeError: sim-engine fault: exiting after ${completed} requests (dieAfterRequests)`);
    for (const stream of active) {
      if (stream.timer) clearTimeout(stream.timer);
      finishRecord(stream.record, "engine_died");
    }
    active.clear();
    server.close();
    for (const socket of sockets) socket.destroy();
    (options.onDie ?? (() => void 0))(faults.dieExitCode);
  };
  const countCompleted = () => {
    completed++;
    if (faults.dieAfterRequests !== null && completed >= faults.dieAfterRequests) setImmediate(die);
  };
  const newRecord = (promptId, path, receivedAtMs, promptIdHint = null) => {
    const record = {
      seq: ++seq,
      promptId,
      promptIdHint,
      path,
      receivedAtMs,
      chunkWritesMs: [],
      finishedAtMs: null,
      outcome: "streaming"
    };
    if (keepRecords) writeLog.requests.push(record);
    return record;
  };
  const streamAnswer = (res, record, plan, chat, body, t0) => {
    const id = `${chat ? "chatcmpl" : "cmpl"}-sim${record.seq}`;
    const head = `data: {"id":"${id}","object":"${chat ? "chat.completion.chunk" : "text_completion"}","created":${created},"model":${JSON.stringify(profile.model)},"choices":[{"index":0,`;
    const reasoningField = profile.flavour === "vllm" ? "reasoning" : "reasoning_content";
    const promptTokens = promptTokenEstimate(body);
    const streamOptions = body.stream_options;
    const includeUsage = streamOptions?.include_usage === true;
    const usagePerChunk = includeUsage && (profile.usagePerChunk || streamOptions?.continuous_usage_stats === true);
    const total = plan.reasoningTokens + plan.contentTokens;
    const claimed = (completion) => cheats.claimTokens ? total : Math.ceil(completion * cheats.usageFactor);
    const usageJson = (completion) => `{"prompt_tokens":${promptTokens},"completion_tokens":${claimed(completion)},"total_tokens":${promptTokens + claimed(completion)}}`;
    const k = plan.tokensPerChunk;
    const reasoning = chat ? plan.reasoningTokens : 0;
    const reasoningChunks = Math.ceil(reasoning / k);
    const contentChunks = Math.ceil((total - reasoning) / k);
    const chunkCount = cheats.claimTokens ? Math.min(1, reasoningChunks + contentChunks) : reasoningChunks + contentChunks;
    const malformedAt = plan.fault === "malformed_sse" ? Math.floor(chunkCount / 2) : -1;
    let next = 0;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    if (chat) res.write(`${head}"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}

`);
    const stream = { res, record, timer: null };
    active.add(stream);
    const chunkEnd = (index) => index < reasoningChunks ? Math.min((index + 1) * k, reasoning) : Math.min(reasoning + (index - reasoningChunks + 1) * k, total);
    const honestTokens = cheats.fillerAfterTokens ?? Number.POSITIVE_INFINITY;
    const dueAt = (index) => {
      const tokens = chunkEnd(index) - 1;
      const honest = Math.min(tokens, honestTokens);
      return t0 + plan.ttftMs + honest * plan.itlMs + (tokens - honest) * (plan.itlMs / LATE_FILLER_SPEEDUP);
    };
    const writeChunk = (index) => {
      const isReasoning = index < reasoningChunks;
      const from = isReasoning ? index * k : reasoning + (index - reasoningChunks) * k;
      const to = chunkEnd(index);
      const text = isReasoning ? answerRun(words, style, "reasoning", from, to, 0) : answerRun(words, style, "content", from - reasoning, to - reasoning, reasoning);
      const field = !chat ? "text" : isReasoning ? reasoningField : "content";
      const payload = chat ? `"delta":{"${field}":${JSON.stringify(text)}},` : `"text":${JSON.stringify(text)},`;
      const usage = usagePerChunk ? `,"usage":${usageJson(to)}` : "";
      const line = `${head}${payload}"logprobs":null,"finish_reason":null}]${usage}}

`;
      record.chunkWritesMs.push(performance2.now() + offset);
      res.write(line);
    };
    const finishStream = () => {
      active.delete(stream);
      const finalDelta = chat ? `"delta":{},` : `"text":"",`;
      const usage = usagePerChunk ? `,"usage":${usageJson(total)}` : "";
      let tail = `${head}${finalDelta}"logprobs":null,"finish_reason":"${plan.finishReason}"}]${usage}}

`;
      if (includeUsage) {
        tail += `data: {"id":"${id}","object":"${chat ? "chat.completion.chunk" : "text_completion"}","created":${created},"model":${JSON.stringify(profile.model)},"choices":[],"usage":${usageJson(total)}}

`;
      }
      tail += "data: [DONE]\n\n";
      res.end(tail);
      finishRecord(record, "completed");
      countCompleted();
    };
    const pump = () => {
      stream.timer = null;
      if (dead || res.destroyed) return;
      const now = performance2.now();
      while (next < chunkCount && dueAt(next) <= now) {
        if (next === malformedAt) {
          active.delete(stream);
          res.end(`${head}"delta":{"content":"broken

`);
          finishRecord(record, "malformed_sse");
          return;
        }
        writeChunk(next);
        next++;
      }
      if (next >= chunkCount) {
        finishStream();
        return;
      }
      stream.timer = setTimeout(pump, Math.max(0, dueAt(next) - performance2.now()));
    };
    res.on("close", () => {
      if (!res.writableFinished && record.finishedAtMs === null) {
        if (stream.timer) clearTimeout(stream.timer);
        active.delete(stream);
        finishRecord(record, "client_closed");
      }
    });
    pump();
  };
  const answerWhole = (res, record, plan, chat, body, t0) => {
    const total = plan.reasoningTokens + plan.contentTokens;
    const reasoning = chat ? plan.reasoningTokens : 0;
    const doneAt = t0 + plan.ttftMs + Math.max(0, total - 1) * plan.itlMs;
    const promptTokens = promptTokenEstimate(body);
    const usage = { prompt_tokens: promptTokens, completion_tokens: total, total_tokens: promptTokens + total };
    const stream = { res, record, timer: null };
    active.add(stream);
    stream.timer = setTimeout(() => {
      active.delete(stream);
      if (dead) return;
      if (res.destroyed) {
        finishRecord(record, "client_closed");
        return;
      }
      if (plan.fault === "malformed_sse") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"id": "broken", "choices": [');
        finishRecord(record, "malformed_sse");
        return;
      }
      const content = answerRun(words, style, "content", 0, total - reasoning, reasoning);
      const reasoningText = reasoning > 0 ? answerRun(words, style, "reasoning", 0, reasoning, 0) : null;
      const reasoningField = profile.flavour === "vllm" ? "reasoning" : "reasoning_content";
      const choice = chat ? { index: 0, message: { role: "assistant", content, [reasoningField]: reasoningText }, logprobs: null, finish_reason: plan.finishReason } : { index: 0, text: content, logprobs: null, finish_reason: plan.finishReason };
      sendJson(res, 200, {
        id: `${chat ? "chatcmpl" : "cmpl"}-sim${record.seq}`,
        object: chat ? "chat.completion" : "text_completion",
        created,
        model: profile.model,
        choices: [choice],
        usage
      });
      finishRecord(record, "completed");
      countCompleted();
    }, Math.max(0, doneAt - performance2.now()));
  };
  const handleCompletion = (req, res, chat, t0) => {
    const parts = [];
    let size = 0;
    req.on("data", (part) => {
      size += part.length;
      if (size <= MAX_BODY_BYTES) parts.push(part);
    });
    req.on("end", () => {
      if (dead) return;
      let body;
      try {
        const parsed = JSON.parse(Buffer.concat(parts).toString("utf8"));
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("expected a JSON object");
        body = parsed;
      } catch (error) {
        const record2 = newRecord(null, req.url ?? "", t0 + offset);
        finishRecord(record2, "bad_request");
        sendJson(res, 400, { object: "error", message: `invalid JSON body: ${error.message}`, type: "BadRequestError", code: 400 });
        return;
      }
      const promptId = prompts.match(body);
      const hint = findPromptIdHint(req.headers, body);
      const record = newRecord(promptId, req.url ?? "", t0 + offset, hint);
      const plan = planResponse(profile, promptId, readMaxTokens(body), readThinking(body));
      if (hint !== null && cheats.promptIdSpeedup !== null) {
        plan.ttftMs /= cheats.promptIdSpeedup;
        plan.itlMs /= cheats.promptIdSpeedup;
      }
      if (plan.fault === "http500") {
        finishRecord(record, "http500");
        sendJson(res, 500, { object: "error", message: "Internal server error (sim-engine fault: http500)", type: "InternalServerError", code: 500 });
        return;
      }
      if (body.stream === true) streamAnswer(res, record, plan, chat, body, t0);
      else answerWhole(res, record, plan, chat, body, t0);
    });
  };
  const server = createServer2({ noDelay: true, keepAliveTimeout: 65e3 }, (req, res) => {
    const t0 = performance2.now();
    const url2 = req.url ?? "/";
    const path = url2.split("?")[0];
    if (req.method === "GET" && path === "/health") {
      if (healthy) sendJson(res, 200, { status: "ok" });
      else sendJson(res, 503, { status: "starting" });
      return;
    }
    if (req.method === "GET" && path === "/v1/models") {
      sendJson(res, 200, { object: "list", data: [{ id: profile.model, object: "model", created, owned_by: "speedgate-sim" }] });
      return;
    }
    if (req.method === "POST" && (path === "/v1/chat/completions" || path === "/v1/completions")) {
      if (!healthy) {
        sendJson(res, 503, { object: "error", message: "the server is still starting", type: "ServiceUnavailableError", code: 503 });
        return;
      }
      handleCompletion(req, res, path === "/v1/chat/completions", t0);
      return;
    }
    sendJson(res, 404, { object: "error", message: `no route ${req.method ?? ""} ${path}`, type: "NotFoundError", code: 404 });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve3, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve3();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  log(`sim-engine listening on ${url} (model ${profile.model}, ${profile.flavour} flavour)`);
  const becomeHealthy = () => {
    healthy = true;
    log(READY_LINE);
    markHealthy();
  };
  if (!faults.neverHealthy) {
    const wait = faults.startupDelayMs - (performance2.now() - startedAt);
    if (wait > 0) startupTimer = setTimeout(becomeHealthy, wait);
    else becomeHealthy();
  }
  return {
    url,
    port,
    profile,
    writeLog,
    healthy: healthyPromise,
    async close() {
      if (startupTimer) clearTimeout(startupTimer);
      for (const stream of active) {
        if (stream.timer) clearTimeout(stream.timer);
        finishRecord(stream.record, "engine_died");
      }
      active.clear();
      dead = true;
      const closed = new Promise((resolve3) => server.close(() => resolve3()));
      for (const socket of sockets) socket.destroy();
      await closed;
      if (chunkLog) await new Promise((resolve3) => chunkLog.end(() => resolve3()));
    }
  };
}

// src/cli/commands/sim-engine-command.ts
var USAGE2 = `speedgate sim-engine [--port N] [--host 127.0.0.1] [--profile profile.json]
    [--model NAME] [--flavour sglang|vllm] [--ttft-ms MS] [--itl-ms MS] [--output-tokens N]
    [--reasoning-tokens N] [--tokens-per-chunk N] [--usage-per-chunk] [--chunk-log out.jsonl]
    [--prompts prompts.jsonl] [--tokenizer tokenizer.json] [--diverge-after-tokens N]
    faults: [--crash-log FILE] [--crash-exit-code N] [--never-healthy] [--startup-delay-ms MS]
    [--die-after-requests N] [--die-exit-code N] [--stop-early id,id] [--http-500 id,id] [--malformed-sse id,id]
    cheats: [--cheat-claim-tokens] [--cheat-usage-factor F] [--cheat-filler-text] [--cheat-filler-after-tokens N]
    [--cheat-prompt-id-speedup F]

Flags override the profile. Requests do not name their prompt: the ids in the profile and the fault
lists are found from each request's content through the prompts file (--prompts, or the profile's
promptsFile). --tokenizer streams whole-word tokens of that tokenizer.json, so a round counting with
it sees exactly the engine's token counts.`;
function parseNumber(flag, value) {
  if (value === void 0) return void 0;
  const number = Number(value);
  if (!Number.isFinite(number)) throw new UsageError(`speedgate sim-engine: --${flag}: expected a number, got ${JSON.stringify(value)}`);
  return number;
}
function parseIds(value) {
  return value === void 0 ? void 0 : value.split(",").map((id) => id.trim()).filter((id) => id.length > 0);
}
function dropUndefined(value) {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== void 0));
}
async function readProfile(path) {
  let text;
  try {
    text = await readFile2(path, "utf8");
  } catch (error) {
    throw new ConfigError(`speedgate sim-engine: cannot read the profile ${path}: ${error.message}`);
  }
  try {
    const parsed = JSON.parse(text);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("expected a JSON object");
    return { profile: parsed, dir: dirname(resolve2(path)) };
  } catch (error) {
    throw new ConfigError(`speedgate sim-engine: the profile ${path} is not valid JSON: ${error.message}`);
  }
}
var simEngineCommand = {
  name: "sim-engine",
  summary: "run the reference OpenAI-compatible engine (deterministic timings, fault flags)",
  usage: USAGE2,
  async run(args, context) {
    const { values } = parseCommandArgs("sim-engine", args, {
      port: { type: "string", default: "30000" },
      host: { type: "string", default: "127.0.0.1" },
      profile: { type: "string" },
      model: { type: "string" },
      flavour: { type: "string" },
      "ttft-ms": { type: "string" },
      "itl-ms": { type: "string" },
      "output-tokens": { type: "string" },
      "reasoning-tokens": { type: "string" },
      "tokens-per-chunk": { type: "string" },
      "usage-per-chunk": { type: "boolean" },
      "chunk-log": { type: "string" },
      "crash-log": { type: "string" },
      "crash-exit-code": { type: "string" },
      "never-healthy": { type: "boolean" },
      "startup-delay-ms": { type: "string" },
      "die-after-requests": { type: "string" },
      "die-exit-code": { type: "string" },
      "stop-early": { type: "string" },
      "http-500": { type: "string" },
      "malformed-sse": { type: "string" },
      prompts: { type: "string" },
      tokenizer: { type: "string" },
      "diverge-after-tokens": { type: "string" },
      "cheat-claim-tokens": { type: "boolean" },
      "cheat-usage-factor": { type: "string" },
      "cheat-filler-text": { type: "boolean" },
      "cheat-filler-after-tokens": { type: "string" },
      "cheat-prompt-id-speedup": { type: "string" }
    });
    const port = parseNumber("port", values.port) ?? 3e4;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`speedgate sim-engine: --port: expected a TCP port, got ${values.port}`);
    const loaded = values.profile ? await readProfile(values.profile) : { profile: {}, dir: process.cwd() };
    const fileProfile = loaded.profile;
    const profilePath = (flag, inFile) => {
      if (flag !== void 0) return resolve2(process.cwd(), flag);
      return typeof inFile === "string" ? resolve2(loaded.dir, inFile) : void 0;
    };
    const crashFlag = values["crash-log"] !== void 0 || values["crash-exit-code"] !== void 0;
    const input = {
      ...fileProfile,
      ...dropUndefined({
        model: values.model,
        flavour: values.flavour,
        usagePerChunk: values["usage-per-chunk"],
        promptsFile: profilePath(values.prompts, fileProfile.promptsFile),
        tokenizer: profilePath(values.tokenizer, fileProfile.tokenizer)
      }),
      answer: { ...fileProfile.answer, ...dropUndefined({ divergeAfterTokens: parseNumber("diverge-after-tokens", values["diverge-after-tokens"]) }) },
      cheats: {
        ...fileProfile.cheats,
        ...dropUndefined({
          claimTokens: values["cheat-claim-tokens"],
          usageFactor: parseNumber("cheat-usage-factor", values["cheat-usage-factor"]),
          fillerText: values["cheat-filler-text"],
          fillerAfterTokens: parseNumber("cheat-filler-after-tokens", values["cheat-filler-after-tokens"]),
          promptIdSpeedup: parseNumber("cheat-prompt-id-speedup", values["cheat-prompt-id-speedup"])
        })
      },
      defaults: {
        ...fileProfile.defaults,
        ...dropUndefined({
          ttftMs: parseNumber("ttft-ms", values["ttft-ms"]),
          itlMs: parseNumber("itl-ms", values["itl-ms"]),
          outputTokens: parseNumber("output-tokens", values["output-tokens"]),
          reasoningTokens: parseNumber("reasoning-tokens", values["reasoning-tokens"]),
          tokensPerChunk: parseNumber("tokens-per-chunk", values["tokens-per-chunk"])
        })
      },
      faults: {
        ...fileProfile.faults,
        ...dropUndefined({
          crashAtStart: crashFlag ? dropUndefined({ logFile: values["crash-log"], exitCode: parseNumber("crash-exit-code", values["crash-exit-code"]) }) : void 0,
          neverHealthy: values["never-healthy"],
          startupDelayMs: parseNumber("startup-delay-ms", values["startup-delay-ms"]),
          dieAfterRequests: parseNumber("die-after-requests", values["die-after-requests"]),
          dieExitCode: parseNumber("die-exit-code", values["die-exit-code"]),
          stopEarly: parseIds(values["stop-early"]),
          http500: parseIds(values["http-500"]),
          malformedSse: parseIds(values["malformed-sse"])
        })
      }
    };
    const parsed = simProfileSchema.safeParse(input);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "profile"}: ${issue.message}`);
      throw new ConfigError(`speedgate sim-engine: invalid profile: ${issues.join("; ")}`);
    }
    const profile = parsed.data;
    const logLine = (line) => {
      process.stderr.write(`${line}
`);
    };
    const crash = profile.faults.crashAtStart;
    if (crash) {
      if (crash.logFile) {
        const logPath = resolve2(values["crash-log"] !== void 0 ? process.cwd() : loaded.dir, crash.logFile);
        try {
          process.stderr.write(await readFile2(logPath));
        } catch (error) {
          throw new ConfigError(`speedgate sim-engine: cannot read the crash log ${logPath}: ${error.message}`);
        }
      }
      return crash.exitCode;
    }
    let inputs;
    try {
      inputs = await loadSimInputs(profile, loaded.dir);
    } catch (error) {
      if (error instanceof ConfigError) throw new ConfigError(`speedgate sim-engine: ${error.message}`);
      throw error;
    }
    const engine = await startSimEngine({
      host: values.host ?? "127.0.0.1",
      ...inputs,
      port,
      profile,
      log: logLine,
      keepRecords: false,
      ...values["chunk-log"] ? { chunkLogPath: values["chunk-log"] } : {},
      onDie: (exitCode) => process.exit(exitCode)
    });
    await new Promise((resolveAbort) => {
      if (context.signal.aborted) resolveAbort();
      else context.signal.addEventListener("abort", () => resolveAbort(), { once: true });
    });
    await engine.close();
    logLine("sim-engine: shut down");
    return 0;
  }
};

// src/cli/commands/index.ts
var commands = [runCommand, demoCommand, mergeCommand, renderCommand, simEngineCommand, cleanupCommand];

// src/cli/main.ts
function helpText(all) {
  const width = Math.max(...all.map((command) => command.name.length));
  const lines = all.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `speedgate ${SPEEDGATE_VERSION}: does this patch really make the engine faster?

Usage: speedgate <command> [options]

${lines.join("\n")}

Run "speedgate <command> --help" for a command's options.
`;
}
async function main(argv, options = {}) {
  const stdout = options.stdout ?? process.stdout;
  const logger = options.logger ?? createStderrLogger({ verbose: argv.includes("--verbose") });
  const [name, ...rest] = argv.filter((arg) => arg !== "--verbose");
  if (!name || name === "--help" || name === "-h" || name === "help") {
    stdout.write(helpText(commands));
    return name ? 0 : 2;
  }
  if (name === "--version") {
    stdout.write(`${SPEEDGATE_VERSION}
`);
    return 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    logger.error(`unknown command ${JSON.stringify(name)}; expected one of ${commands.map((c) => c.name).join(", ")}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    stdout.write(`${command.summary}

Usage: ${command.usage}
`);
    return 0;
  }
  const context = {
    stdout,
    logger,
    signal: options.signal ?? new AbortController().signal,
    env: options.env ?? process.env
  };
  try {
    return await command.run(rest, context);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError) {
      logger.error(error.message);
      return 2;
    }
    logger.error(`speedgate ${name} failed: ${error.stack ?? String(error)}`);
    return 1;
  }
}

// src/cli/install-signal-handlers.ts
function installSignalHandlers() {
  const controller = new AbortController();
  const onSignal = (signal2) => {
    if (!controller.signal.aborted) {
      process.stderr.write(`speedgate: received ${signal2}, stopping engines\u2026
`);
      controller.abort(new Error(`received ${signal2}`));
      return;
    }
    if (signal2 === "SIGINT") {
      process.stderr.write("speedgate: received SIGINT again, exiting now\n");
      process.exit(130);
    }
    process.stderr.write(`speedgate: received ${signal2}, still stopping engines\u2026
`);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return controller.signal;
}

// src/cli/index.ts
var signal = installSignalHandlers();
process.exitCode = await main(process.argv.slice(2), { signal });
