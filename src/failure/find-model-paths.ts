import type { EngineFamily } from "../vocabulary/engine-family.js";

/** A model path an engine's command names: the flag that names it (or the subcommand), and the path as written. */
export interface CommandModelPath {
  flag: string;
  path: string;
}

/**
 * The flags each engine reads its model from. llama.cpp's `-m` is always a file (a hub model has flags of its
 * own, `-hf`, `--model-url`); SGLang's and vLLM's may be a Hugging Face id, so theirs count only when written
 * as a path.
 */
const MODEL_FLAGS: Readonly<Record<EngineFamily, { flags: readonly string[]; alwaysPath: boolean }>> = {
  "llama.cpp": { flags: ["-m", "--model"], alwaysPath: true },
  sglang: { flags: ["--model-path", "--model"], alwaysPath: false },
  vllm: { flags: ["--model"], alwaysPath: false },
};

/** A value written as a path on disk rather than a hub id ("Qwen/Qwen3-8B" is both; only "/…", "./…" and "../…" are sure). */
const looksLikePath = (value: string): boolean => /^(?:\/|\.\.?\/)/.test(value);

/**
 * The model paths an engine's command names, in its own flags (`-m x`, `--model=x`; `vllm serve <path>`),
 * for a runtime to check after the engine exited at startup: an engine can die of a missing model before
 * its log says so (llama-server logs through a worker thread that its exit does not wait for, and lost the
 * line in about one start in five on a loaded machine). An engine speedgate does not know names none.
 */
export function findModelPaths(family: EngineFamily | null, argv: readonly string[]): CommandModelPath[] {
  if (family === null) return [];
  const { flags, alwaysPath } = MODEL_FLAGS[family];
  const found: CommandModelPath[] = [];
  const add = (flag: string, value: string | undefined): void => {
    if (value === undefined || value === "" || value.startsWith("-")) return;
    if (alwaysPath || looksLikePath(value)) found.push({ flag, path: value });
  };
  argv.forEach((arg, index) => {
    const equals = arg.indexOf("=");
    const name = equals > 0 ? arg.slice(0, equals) : arg;
    if (!flags.includes(name)) {
      // `vllm serve /models/x`: the model is the word after the subcommand.
      if (family === "vllm" && arg === "serve" && /(?:^|\/)vllm$/.test(argv[index - 1] ?? "")) add("vllm serve", argv[index + 1]);
      return;
    }
    add(name, equals > 0 ? arg.slice(equals + 1) : argv[index + 1]);
  });
  return found;
}
