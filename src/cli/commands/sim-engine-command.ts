import { readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { ConfigError } from "../../vocabulary/config-error.js";
import { simProfileSchema } from "../../sim-engine/sim-profile.js";
import { type SimInputs, loadSimInputs } from "../../sim-engine/load-sim-inputs.js";
import { startSimEngine } from "../../sim-engine/start-sim-engine.js";
import { type Command, UsageError } from "../command.js";
import { parseCommandArgs } from "../parse-command-args.js";

const USAGE = `speedgate sim-engine [--port N] [--host 127.0.0.1] [--profile profile.json]
    [--model NAME] [--flavour sglang|vllm] [--ttft-ms MS] [--itl-ms MS] [--output-tokens N]
    [--reasoning-tokens N] [--tokens-per-chunk N] [--usage-per-chunk] [--chunk-log out.jsonl]
    [--prompts prompts.jsonl] [--tokenizer tokenizer.json] [--diverge-after-tokens N]
    [--diverge-after-fraction F] [--diverge-every N] [--batch-cost F]
    nondeterminism: [--branch-every N] [--branch-at-fraction F] [--branch-probability P] [--branch-length-factor F]
    noise: [--jitter SD] [--run-variance SD] [--seed N] [--start-counter FILE]
    faults: [--crash-log FILE] [--crash-exit-code N] [--never-healthy] [--startup-delay-ms MS]
    [--die-after-requests N] [--die-exit-code N] [--hold-after-requests N]
    [--stop-early id,id] [--stop-early-fraction F] [--stop-early-on-starts N,N]
    [--http-500 id,id] [--malformed-sse id,id]
    cheats: [--cheat-claim-tokens] [--cheat-usage-factor F] [--cheat-filler-text] [--cheat-filler-after-tokens N]
    [--cheat-filler-after N|P%] [--cheat-prompt-id-speedup F] [--cheat-answer-cache-speedup F]
    [--cheat-filler-at-branch]
    quality questions: [--questions questions.jsonl] [--question-accuracy F] [--question-unsteady F]
    [--question-seed N] [--question-answer-tokens N] [--numerics-change F] [--quality-drop F]

Flags override the profile. Requests do not name their prompt: the ids in the profile and the fault
lists are found from each request's content through the prompts file (--prompts, or the profile's
promptsFile). --tokenizer streams whole-word tokens of that tokenizer.json, so a round counting with
it sees exactly the engine's token counts. --jitter varies each request's timing and --run-variance
each start's speed, as log-normal factors with that standard deviation (0.02 is about 2%); --seed
makes the draws reproducible, and --start-counter FILE numbers the starts so that each start of a
seeded engine draws its own speed. --batch-cost F models a continuous batch: with n streams decoding,
each token takes 1 + F·(n − 1) times as long, so a stream that stops decoding speeds up the others.
--diverge-after-fraction F with --diverge-every N makes every Nth prompt's answer part from the
honest one after that share of its tokens (honest numeric drift). --stop-early-on-starts limits
--stop-early to those starts (0-based, with --start-counter), as a batch-dependent early stop comes
and goes between runs. --cheat-filler-after N or P% streams the honest answer's first N tokens (or P%
of them), then filler ten times as fast that costs no decode work: the stream leaves the batch.
--branch-every N makes every Nth prompt bistable, as a batching GPU engine's are at temperature 0:
at --branch-at-fraction F of the answer (0.25) each request takes a second continuation with
--branch-probability P (0.5), drawn per request (seeded with --seed), which runs on for
--branch-length-factor times the first's tokens (0.6). --cheat-filler-at-branch streams filler from
that point wherever a request would take the second continuation.
--questions names a quality question set (JSONL with reference answers, the round's quality.questions):
a request asking one of its questions is answered in the engine's words ending in "The answer is N.",
right for a seeded --question-accuracy share of the questions (0.8; --question-seed picks which),
right or wrong by a draw per request for a --question-unsteady share (a near-tie). --numerics-change F
turns that share of the right answers wrong and as many wrong ones right (the same accuracy);
--quality-drop F turns that share of the right answers wrong; --question-answer-tokens N sets
an answer's length (the profile's output tokens by default). --diverge-after-fraction and the cheats
apply to these answers too: filler never reaches the final answer.`;

function parseNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number)) throw new UsageError(`speedgate sim-engine: --${flag}: expected a number, got ${JSON.stringify(value)}`);
  return number;
}

/** --cheat-filler-after: a whole number of tokens, or a share of the answer as "25%". */
function parseFillerAfter(value: string | undefined): { tokens?: number; fraction?: number } | undefined {
  if (value === undefined) return undefined;
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(value.trim());
  if (percent) return { fraction: Number(percent[1]) / 100 };
  return { tokens: parseNumber("cheat-filler-after", value) };
}

/** The --branch-* flags over the profile's answer.branches; undefined when no flag is given (the profile's stands). */
function branchFlags(values: Record<string, string | boolean | undefined>, fromFile: object | null): object | undefined {
  const flag = (name: string): number | undefined => parseNumber(name, typeof values[name] === "string" ? values[name] : undefined);
  const flags = dropUndefined({
    every: flag("branch-every"),
    atFraction: flag("branch-at-fraction"),
    probability: flag("branch-probability"),
    lengthFactor: flag("branch-length-factor"),
  });
  return Object.keys(flags).length === 0 ? undefined : { ...fromFile, ...flags };
}

function parseIds(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(",")
        .map((id) => id.trim())
        .filter((id) => id.length > 0);
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

async function readProfile(path: string): Promise<{ profile: Record<string, unknown>; dir: string }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ConfigError(`speedgate sim-engine: cannot read the profile ${path}: ${(error as Error).message}`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("expected a JSON object");
    return { profile: parsed as Record<string, unknown>, dir: dirname(resolve(path)) };
  } catch (error) {
    throw new ConfigError(`speedgate sim-engine: the profile ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** This start's number from a counter file (0 when it does not exist yet), and the file moved on to the next. */
async function countStart(path: string): Promise<number> {
  let start = 0;
  try {
    start = Number.parseInt(await readFile(path, "utf8"), 10);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      throw new ConfigError(`speedgate sim-engine: --start-counter: cannot read ${path}: ${(error as Error).message}`);
  }
  if (!Number.isInteger(start) || start < 0)
    throw new ConfigError(`speedgate sim-engine: --start-counter: ${path} does not hold a start count`);
  try {
    await writeFile(path, `${start + 1}\n`);
  } catch (error) {
    throw new ConfigError(`speedgate sim-engine: --start-counter: cannot write ${path}: ${(error as Error).message}`);
  }
  return start;
}

/**
 * The reference engine as a process: what the demo, dry runs of a workflow on a CPU runner, and the
 * tests start where a real round starts SGLang or vLLM.
 */
export const simEngineCommand: Command = {
  name: "sim-engine",
  summary: "run the reference OpenAI-compatible engine (deterministic timings, fault flags)",
  usage: USAGE,
  details: `Exit codes: 0 stopped by SIGINT or SIGTERM; 1 the port is taken (EADDRINUSE), or speedgate itself failed;
the --die-exit-code after --die-after-requests, or the --crash-exit-code with --crash-log; 2 bad usage or profile`,
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
      "hold-after-requests": { type: "string" },
      "die-exit-code": { type: "string" },
      "stop-early": { type: "string" },
      "stop-early-fraction": { type: "string" },
      "http-500": { type: "string" },
      "malformed-sse": { type: "string" },
      prompts: { type: "string" },
      tokenizer: { type: "string" },
      "diverge-after-tokens": { type: "string" },
      "diverge-after-fraction": { type: "string" },
      "diverge-every": { type: "string" },
      "batch-cost": { type: "string" },
      "branch-every": { type: "string" },
      "branch-at-fraction": { type: "string" },
      "branch-probability": { type: "string" },
      "branch-length-factor": { type: "string" },
      "cheat-filler-at-branch": { type: "boolean" },
      "stop-early-on-starts": { type: "string" },
      "cheat-filler-after": { type: "string" },
      "cheat-claim-tokens": { type: "boolean" },
      "cheat-usage-factor": { type: "string" },
      "cheat-filler-text": { type: "boolean" },
      "cheat-filler-after-tokens": { type: "string" },
      "cheat-prompt-id-speedup": { type: "string" },
      "cheat-answer-cache-speedup": { type: "string" },
      questions: { type: "string" },
      "question-accuracy": { type: "string" },
      "question-unsteady": { type: "string" },
      "question-seed": { type: "string" },
      "question-answer-tokens": { type: "string" },
      "numerics-change": { type: "string" },
      "quality-drop": { type: "string" },
      jitter: { type: "string" },
      "run-variance": { type: "string" },
      seed: { type: "string" },
      "start-counter": { type: "string" },
    });
    const port = parseNumber("port", values.port) ?? 30000;
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new UsageError(`speedgate sim-engine: --port: expected a TCP port, got ${values.port}`);

    const loaded = values.profile ? await readProfile(values.profile) : { profile: {}, dir: process.cwd() };
    const fileProfile = loaded.profile as {
      defaults?: object;
      noise?: object;
      faults?: { crashAtStart?: object | null } & object;
      answer?: object;
      cheats?: object;
      questions?: { file?: unknown } & object;
      promptsFile?: unknown;
      tokenizer?: unknown;
    };
    // Paths in the profile are relative to it, paths in flags to the working folder.
    const profilePath = (flag: string | undefined, inFile: unknown): string | undefined => {
      if (flag !== undefined) return resolve(process.cwd(), flag);
      return typeof inFile === "string" ? resolve(loaded.dir, inFile) : undefined;
    };
    const fillerAfter = parseFillerAfter(values["cheat-filler-after"]);
    const crashFlag = values["crash-log"] !== undefined || values["crash-exit-code"] !== undefined;
    const input = {
      ...fileProfile,
      ...dropUndefined({
        model: values.model,
        flavour: values.flavour,
        usagePerChunk: values["usage-per-chunk"],
        batchCost: parseNumber("batch-cost", values["batch-cost"]),
        promptsFile: profilePath(values.prompts, fileProfile.promptsFile),
        tokenizer: profilePath(values.tokenizer, fileProfile.tokenizer),
      }),
      answer: {
        ...fileProfile.answer,
        ...dropUndefined({
          divergeAfterTokens: parseNumber("diverge-after-tokens", values["diverge-after-tokens"]),
          divergeAfterFraction: parseNumber("diverge-after-fraction", values["diverge-after-fraction"]),
          divergeEvery: parseNumber("diverge-every", values["diverge-every"]),
          branches: branchFlags(values, (fileProfile.answer as { branches?: object | null } | undefined)?.branches ?? null),
        }),
      },
      cheats: {
        ...fileProfile.cheats,
        ...dropUndefined({
          claimTokens: values["cheat-claim-tokens"],
          usageFactor: parseNumber("cheat-usage-factor", values["cheat-usage-factor"]),
          fillerText: values["cheat-filler-text"],
          fillerAfterTokens: parseNumber("cheat-filler-after-tokens", values["cheat-filler-after-tokens"]) ?? fillerAfter?.tokens,
          fillerAfterFraction: fillerAfter?.fraction,
          promptIdSpeedup: parseNumber("cheat-prompt-id-speedup", values["cheat-prompt-id-speedup"]),
          answerCacheSpeedup: parseNumber("cheat-answer-cache-speedup", values["cheat-answer-cache-speedup"]),
          fillerAtBranch: values["cheat-filler-at-branch"],
        }),
      },
      questions: {
        ...fileProfile.questions,
        ...dropUndefined({
          file: profilePath(values.questions, fileProfile.questions?.file),
          accuracy: parseNumber("question-accuracy", values["question-accuracy"]),
          unsteady: parseNumber("question-unsteady", values["question-unsteady"]),
          seed: parseNumber("question-seed", values["question-seed"]),
          answerTokens: parseNumber("question-answer-tokens", values["question-answer-tokens"]),
          numericsChange: parseNumber("numerics-change", values["numerics-change"]),
          qualityDrop: parseNumber("quality-drop", values["quality-drop"]),
        }),
      },
      defaults: {
        ...fileProfile.defaults,
        ...dropUndefined({
          ttftMs: parseNumber("ttft-ms", values["ttft-ms"]),
          itlMs: parseNumber("itl-ms", values["itl-ms"]),
          outputTokens: parseNumber("output-tokens", values["output-tokens"]),
          reasoningTokens: parseNumber("reasoning-tokens", values["reasoning-tokens"]),
          tokensPerChunk: parseNumber("tokens-per-chunk", values["tokens-per-chunk"]),
        }),
      },
      noise: {
        ...fileProfile.noise,
        ...dropUndefined({
          jitter: parseNumber("jitter", values.jitter),
          runVariance: parseNumber("run-variance", values["run-variance"]),
          seed: parseNumber("seed", values.seed),
        }),
      },
      faults: {
        ...fileProfile.faults,
        ...dropUndefined({
          crashAtStart: crashFlag
            ? dropUndefined({ logFile: values["crash-log"], exitCode: parseNumber("crash-exit-code", values["crash-exit-code"]) })
            : undefined,
          neverHealthy: values["never-healthy"],
          startupDelayMs: parseNumber("startup-delay-ms", values["startup-delay-ms"]),
          dieAfterRequests: parseNumber("die-after-requests", values["die-after-requests"]),
          dieExitCode: parseNumber("die-exit-code", values["die-exit-code"]),
          holdAfterRequests: parseNumber("hold-after-requests", values["hold-after-requests"]),
          stopEarly: parseIds(values["stop-early"]),
          stopEarlyFraction: parseNumber("stop-early-fraction", values["stop-early-fraction"]),
          stopEarlyOnStarts: parseIds(values["stop-early-on-starts"])?.map((start) => parseNumber("stop-early-on-starts", start)),
          http500: parseIds(values["http-500"]),
          malformedSse: parseIds(values["malformed-sse"]),
        }),
      },
    };
    const parsed = simProfileSchema.safeParse(input);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "profile"}: ${issue.message}`);
      throw new ConfigError(`speedgate sim-engine: invalid profile: ${issues.join("; ")}`);
    }
    const profile = parsed.data;
    const logLine = (line: string): void => {
      process.stderr.write(`${line}\n`);
    };

    const crash = profile.faults.crashAtStart;
    if (crash) {
      if (crash.logFile) {
        const logPath = resolve(values["crash-log"] !== undefined ? process.cwd() : loaded.dir, crash.logFile);
        try {
          process.stderr.write(await readFile(logPath));
        } catch (error) {
          throw new ConfigError(`speedgate sim-engine: cannot read the crash log ${logPath}: ${(error as Error).message}`);
        }
      }
      return crash.exitCode;
    }

    let inputs: SimInputs;
    try {
      inputs = await loadSimInputs(profile, loaded.dir);
    } catch (error) {
      if (error instanceof ConfigError) throw new ConfigError(`speedgate sim-engine: ${error.message}`);
      throw error;
    }
    const start = values["start-counter"] ? await countStart(values["start-counter"]) : 0;
    let engine: Awaited<ReturnType<typeof startSimEngine>>;
    try {
      engine = await startSimEngine({
        host: values.host ?? "127.0.0.1",
        ...inputs,
        port,
        profile: profile,
        start,
        log: logLine,
        keepRecords: false,
        ...(values["chunk-log"] ? { chunkLogPath: values["chunk-log"] } : {}),
        onDie: (exitCode) => process.exit(exitCode),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EADDRINUSE" && code !== "EACCES" && code !== "EADDRNOTAVAIL") throw error;
      // One line a person (and the failure classifier, for EADDRINUSE) can read; exit 1 as a real engine would.
      const why = code === "EADDRINUSE" ? "address already in use (EADDRINUSE): another process listens there" : (error as Error).message;
      context.logger.error(`speedgate sim-engine: cannot listen on ${values.host ?? "127.0.0.1"}:${port}: ${why}`);
      return 1;
    }
    await new Promise<void>((resolveAbort) => {
      if (context.signal.aborted) resolveAbort();
      else context.signal.addEventListener("abort", () => resolveAbort(), { once: true });
    });
    await engine.close();
    logLine("sim-engine: shut down");
    return 0;
  },
};
