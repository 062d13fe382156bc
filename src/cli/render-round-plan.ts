import type { ScenarioBarsDescription } from "./describe-scenario-bars.js";
import { describeRuns } from "../config/run-plan.js";
import type { GateMode } from "../scoring/evaluate-gate.js";
import { isAbsolute, relative } from "node:path";
import type { CheckedPath } from "../config/check-config-paths.js";
import { engineFamily } from "../vocabulary/engine-family.js";
import { DEFAULT_MAX_QUALITY_DROP } from "../scoring/judge-quality.js";
import type { RoundCheck } from "../config/load-round-config.js";
import type { BuildSpec } from "../config/engine-settings-schema.js";
import type { RoundConfig } from "../config/round-config-schema.js";
import { resolveRoundEngines } from "../config/resolve-round-engines.js";
import { sendsBenchPrompts } from "../config/sends-bench-prompts.js";
import { PROCESS_ENGINE_HOST } from "../engine/substitute-command.js";
import { processEngineCwd } from "../engine/resolve-engine-cwd.js";
import type { EngineRole } from "../vocabulary/engine-failure.js";
import { describeLoad } from "../scorecard/render/describe-load.js";
import { describeSharedPrompts, findSharedPrompts } from "../vocabulary/find-shared-prompts.js";
import { describeRoundTwoRuns } from "../round/describe-round-two-runs.js";

/** A command as a reader would type it, placeholders filled as the round will fill them. */
function showCommand(command: readonly string[], config: RoundConfig): string {
  const host = config.runtime === "process" || config.docker.network === "host" ? PROCESS_ENGINE_HOST : "0.0.0.0";
  return command
    .map((argument) =>
      argument
        .replaceAll("{port}", String(config.port))
        .replaceAll("{contextLimit}", String(config.bench.contextLimit))
        .replaceAll("{model}", config.bench.model)
        .replaceAll("{host}", host)
        .replaceAll("{node}", "node")
        .replaceAll("{speedgate}", "speedgate"),
    )
    .map((argument) => (argument === "" || /[\s"'\\$`]/.test(argument) ? JSON.stringify(argument) : argument))
    .join(" ");
}

function showBuild(build: BuildSpec): string {
  const args = Object.keys(build.args);
  return `built from ${build.context} (${build.dockerfile}${args.length > 0 ? `, build args ${args.join(", ")}` : ""})`;
}

function showEnv(env: Readonly<Record<string, string>>): string {
  const names = Object.keys(env ?? {});
  return names.length === 0 ? "none from the config" : names.join(", ");
}

function engineLines(role: EngineRole, check: RoundCheck): string[] {
  const { config, configPath, patch } = check.round;
  const lines: string[] = [];
  const launch = resolveRoundEngines(config, configPath, { commits: check.round.commits != null })[role];
  const { command, cwd } = launch;
  if (check.round.commits) {
    if (config.runtime === "docker") {
      lines.push(
        role === "baseline"
          ? `the engine image ${config.baseline.image ?? "(baseline.build)"} with its source (${config.candidate.sourceDir ?? "?"}) ` +
              `brought to the base`
          : `the baseline with the pull request applied in ${config.candidate.sourceDir ?? "?"}`,
      );
      lines.push(`runs: ${command ? showCommand(command, config) : "the image's own CMD"}`, `in: ${cwd ?? "the image's WORKDIR"}`);
    } else {
      lines.push(
        `runs: ${command ? showCommand(command, config) : "?"}`,
        `in: ${cwd ?? "the root"} of its worktree of the ${role === "baseline" ? "base" : "head"}`,
      );
    }
    lines.push(`environment: ${showEnv(launch.env)}`);
    return lines;
  }
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
        patch || config.candidate.patch
          ? `the baseline image with the patch applied in ${where} (an overlay build${steps})`
          : config.candidate.sourceDir
            ? `the baseline image with the patch applied in ${where} (an overlay build${steps}); the patch comes from --patch or the ` +
              `action's patch input, and without one the candidate is the baseline unpatched`
            : "the baseline image, unpatched (no candidate.patch, candidate.sourceDir or candidate.build)",
      );
    }
    const entrypoint = config.docker.entrypoint;
    const through =
      entrypoint === undefined
        ? " (after the image's ENTRYPOINT, if it has one)"
        : entrypoint.length === 0
          ? " (the image's ENTRYPOINT cleared)"
          : ` (after the ENTRYPOINT ${showCommand(entrypoint, config)})`;
    lines.push(`runs: ${command ? `${showCommand(command, config)}${through}` : "the image's own CMD"}`);
    lines.push(`in: ${cwd ?? "the image's WORKDIR"}`);
  } else {
    const patched = role === "candidate" && config.candidate.sourceDir && (patch || config.candidate.patch);
    if (patched) lines.push(`a copy of ${config.candidate.sourceDir} with the patch applied`);
    lines.push(`runs: ${command ? showCommand(command, config) : "?"}`);
    const marker = "<copy>";
    const folder = processEngineCwd(role, config, configPath, patched ? marker : null);
    const offset = folder.slice(marker.length + 1);
    const shown = !folder.startsWith(marker)
      ? folder
      : offset === ""
        ? `the root of its patched copy of ${config.candidate.sourceDir ?? "?"}`
        : `${offset}/ in its patched copy of ${config.candidate.sourceDir ?? "?"}`;
    lines.push(`in: ${shown}`);
  }
  lines.push(`environment: ${showEnv(launch.env)}`);
  return lines;
}

function containerLines(config: RoundConfig): string[] {
  const { docker } = config;
  const gpus =
    docker.gpus === undefined
      ? "none (docker.gpus is not set)"
      : Array.isArray(docker.gpus)
        ? `devices ${docker.gpus.join(", ")}`
        : String(docker.gpus);
  const shm =
    docker.ipc === "host"
      ? "the host's /dev/shm (ipc: host)"
      : (docker.shmSize ?? "16g, or half the memory limit if smaller (docker.shmSize is not set)");
  const lines = [
    `GPUs: ${gpus}; shared memory: ${shm}; IPC: ${docker.ipc ?? "the daemon's default (private)"}`,
    `network: ${docker.network === "isolated" ? "isolated (a per-run internal network, no internet)" : "host"}`,
  ];
  if (docker.mounts.length === 0) lines.push("mounts: none");
  for (const mount of docker.mounts) lines.push(`mount: ${mount.source} -> ${mount.target} (${mount.readOnly ? "read-only" : "writable"})`);
  return lines;
}

function runnerPrerequisites(check: RoundCheck): string[] {
  const { config } = check.round;
  const needs: string[] = [];
  if (config.runtime === "docker") {
    needs.push("a Docker daemon the runner's user can reach");
    if (config.docker.gpus !== undefined)
      needs.push(
        `GPUs for containers (the NVIDIA Container Toolkit): docker.gpus: ` +
          `${Array.isArray(config.docker.gpus) ? config.docker.gpus.join(", ") : config.docker.gpus}`,
      );
    if (config.baseline.image && !config.baseline.build) needs.push(`the image ${config.baseline.image}, or access to pull it`);
  }
  for (const entry of check.paths.filter((path) => path.onRunner)) needs.push(describeRunnerPath(entry));
  return needs;
}

function describeRunnerPath(entry: CheckedPath): string {
  const state =
    entry.problem === null
      ? "present on this machine"
      : `not on this machine (${entry.problem === "does not exist" ? "checked when the round runs" : entry.problem})`;
  return `${entry.path} (${entry.field}, ${entry.purpose}): ${state}`;
}

/** What a reader should know before spending GPU time on this config. */
function notes(check: RoundCheck): string[] {
  const { config, prompts } = check.round;
  const found: string[] = [];
  if (config.runtime === "docker" && config.docker.gpus === undefined) {
    // llama.cpp serves on CPUs too: there a missing GPU is the plan, not a slip.
    found.push(
      engineFamily(config.engine) === "llama.cpp"
        ? "docker.gpus is not set: llama.cpp runs on the CPU (set docker.gpus and build it with CUDA to use GPUs)"
        : "docker.gpus is not set: the engines start without a GPU (set it to all, a count or device ids)",
    );
  }
  found.push(...describeRoundTwoRuns(check.round));
  config.docker.mounts.forEach((mount, index) => {
    if (!mount.readOnly)
      found.push(`docker.mounts[${index}] is writable: the candidate can change what the next round's engines read there`);
  });
  if (config.runtime === "process" && config.candidate.sourceDir && !config.candidate.cwd && config.baseline.cwd) {
    const offset = relative(config.candidate.sourceDir, config.baseline.cwd);
    if (offset.startsWith("..") || isAbsolute(offset)) {
      found.push(
        "baseline.cwd is outside candidate.sourceDir: the candidate runs at the root of its patched copy; set candidate.cwd if it " +
          "should run elsewhere in it",
      );
    }
  }
  const promptsPath = check.paths.find((entry) => entry.field === "bench.prompts");
  if (promptsPath?.problem) found.push(`the prompts (${promptsPath.path}) are on the runner only: not validated here`);
  else if (prompts.length === 0 && sendsBenchPrompts(config))
    found.push(
      typeof config.bench.prompts === "string"
        ? "the prompts file has no prompts"
        : "the synthetic prompts wait for bench.tokenizer, which is on the runner only",
    );
  return found;
}

/** A prompt set and the load it is sent at, as the plan shows it. */
function describePlanPrompts(bench: RoundConfig["bench"], count: number, onRunnerOnly: boolean): string {
  if (typeof bench.prompts === "object") {
    const { synthetic } = bench.prompts;
    return (
      `${synthetic.count} synthetic, each ${synthetic.inputTokens} tokens asking for exactly ${synthetic.outputTokens} (seed ` +
      `${synthetic.seed}), ${describeLoad(bench)}, ${bench.warmupRequests} warm-up`
    );
  }
  if (onRunnerOnly) return `${bench.prompts} (on the runner)`;
  return `${count} from ${bench.prompts}, up to ${bench.maxTokens} tokens each, ${describeLoad(bench)}, ${bench.warmupRequests} warm-up`;
}

/** A note when scenarios send the same prompts (prompts not found here are not compared). */
function sharedPromptsLines(check: RoundCheck): string[] {
  const scenarios = (check.round.scenarios ?? []).map((scenario) => ({
    name: scenario.name,
    promptsHash: scenario.prompts.length > 0 ? scenario.fingerprint.promptsHash : null,
  }));
  const note = describeSharedPrompts(findSharedPrompts(scenarios));
  return note ? [`note: ${note}`] : [];
}

/** What the gate holds to the bar, in the plan's words. */
function describePlanRule(use: GateMode): string {
  switch (use) {
    case "interval-low":
      return "the 95% interval's low end";
    case "sequential":
      return "the sequential test after each pair of runs (its lower bound)";
    default:
      return "the round score";
  }
}

/** Each scenario on one line: its prompts and load, its runs, its bar and (with `bars`) the settings that decide it. */
function scenarioLines(check: RoundCheck, bars: ScenarioBarsDescription | null): string[] {
  return (check.round.scenarios ?? []).map((scenario, index) => {
    const { bench, gate } = scenario.config;
    const onRunnerOnly = check.paths.some((entry) => entry.field === `scenarios[${index}].prompts` && entry.problem !== null);
    const runs = `${describeRuns(bench.runs)} run${bench.runs === 1 ? "" : "s"}`;
    const bar = bars?.lines.get(scenario.name);
    return (
      `${scenario.name}: ${describePlanPrompts(bench, scenario.prompts.length, onRunnerOnly)}; ${runs}; ` +
      (bar ?? `gate at least ${gate.minRoundScore}×`)
    );
  });
}

/** The question set both engines answer after the bench, and how the gate judges changed answers; none without quality:. */
function qualityLines(check: RoundCheck): string[] {
  const { quality, gate } = check.round.config;
  if (!quality) return [];
  const loaded = check.round.quality;
  const scorer = typeof quality.scorer === "object" ? `regex ${quality.scorer.regex}` : quality.scorer;
  const count = loaded ? `${loaded.questions.length} questions from ${quality.questions}` : `${quality.questions} (on the runner)`;
  const maxDrop = Math.round((gate.quality?.maxDrop ?? DEFAULT_MAX_QUALITY_DROP) * 1000) / 10;
  return [
    `quality: ${count}, scorer ${scorer}, up to ${quality.maxTokens} tokens, ${quality.concurrency} in flight, asked of both engines ` +
      `after the bench in every start; a significant drop of ${maxDrop} points or more fails`,
    gate.answers === "quality"
      ? "gate.answers: quality: an answer no baseline answer gives is timed at equal length, and the question set judges it"
      : "gate.answers: speed (the default): an answer no baseline answer gives is held to the agreement rules",
  ];
}

/** The plan `speedgate run --check` prints: what would run, where, and what the runner must have. */
export function renderRoundPlan(
  check: RoundCheck,
  commitsPlan: readonly string[] = [],
  bars: ScenarioBarsDescription | null = null,
): string {
  const { config, configPath, prompts, patch } = check.round;
  const { bench, gate, health } = config;
  const promptsPath = check.paths.find((entry) => entry.field === "bench.prompts");
  const section = (title: string, lines: string[]): string => [title, ...lines.map((line) => `  ${line}`)].join("\n");
  const out = [
    `speedgate run --check: ${configPath} is valid; nothing was started.`,
    section("Round", [
      `engine ${config.engine}, runtime ${config.runtime}, port ${config.port}`,
      sendsBenchPrompts(config)
        ? `prompts: ${describePlanPrompts(bench, prompts.length, promptsPath?.problem != null)}`
        : `prompts: each scenario sends its own${bench.prompts === undefined ? "" : " (bench.prompts is not read)"}`,
      check.round.commits
        ? "candidate: the head commit (no patch)"
        : patch
          ? `patch: ${patch.path} (${patch.bytes.length} bytes, sha256 ${patch.sha256.slice(0, 16)}…)`
          : config.candidate.patch
            ? `patch: ${config.candidate.patch} (on the runner)`
            : "patch: none here (--patch or the action's patch input supplies it, or --base and --head score a pull request's commits)",
      `runs: ${describeRuns(bench.runs)} of each engine, ${bench.order}`,
      `gate: ${describePlanRule(gate.use)} at least ${gate.minRoundScore}×; a ` +
        `prompt scores only with at least ${Math.round(bench.tolerance * 1000) / 10}% of the baseline's tokens`,
      ...(gate.maxRegression !== undefined
        ? [`gate.maxRegression: no scenario's interval may lie wholly below ${gate.maxRegression}×`]
        : []),
      ...qualityLines(check),
      `health: GET ${health.path} every ${health.intervalMs} ms until 200, for up to ${health.timeoutS} s`,
    ]),
    ...(check.round.scenarios
      ? [
          section(`Scenarios (each engine start serves all ${check.round.scenarios.length}, in this order)`, [
            ...scenarioLines(check, bars),
            ...sharedPromptsLines(check),
          ]),
        ]
      : []),
    ...(commitsPlan.length > 0 ? [section("Commits (the pull request's base against its head)", [...commitsPlan])] : []),
    section("Baseline", engineLines("baseline", check)),
    section("Candidate", engineLines("candidate", check)),
    ...(config.runtime === "docker" ? [section("Containers", containerLines(config))] : []),
  ];
  const needs = runnerPrerequisites(check);
  out.push(section("The runner must have", needs.length > 0 ? needs : ["nothing beyond this machine's files (all checked)"]));
  const found = [...notes(check), ...(bars?.notes ?? [])];
  if (found.length > 0) out.push(section("Notes", found));
  return `${out.join("\n\n")}\n`;
}
