import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { listConfigFields } from "../../bench/bad-input/list-config-fields.js";
import * as hints from "../../src/failure/failure-hints.js";
import { engineFamily } from "../../src/vocabulary/engine-family.js";
import { failureHintBook } from "../../src/failure/failure-hint-book.js";
import * as llamaCppHints from "../../src/failure/llama-cpp-hints.js";
import { runCli } from "../cli/support/sim-round.js";

/*
 * A hint that tells the reader to set a config field that does not exist sends them nowhere: the
 * startup_timeout hint once suggested "a mounted cache" when no field could mount anything.
 */

const troubleshooting = fileURLToPath(new URL("../../docs/troubleshooting/", import.meta.url));
const FIELD = /\b(?:docker|health|bench|build|gate|baseline|candidate)\.[a-zA-Z]+(?:\.[a-zA-Z]+)?/g;

/** Every string a value holds, however deeply nested (the per-engine hints are a table of tables). */
function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value instanceof RegExp || value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(stringsIn);
}

async function hintTexts(): Promise<string[]> {
  const texts: string[] = [];
  for (const value of [...Object.values(hints), ...Object.values(llamaCppHints)]) {
    if (typeof value === "function") texts.push(String((value as (arg?: unknown) => unknown)()));
    else texts.push(...stringsIn(value));
  }
  for (const page of await readdir(troubleshooting)) texts.push(await readFile(join(troubleshooting, page), "utf8"));
  return texts;
}

describe("the failure hints and troubleshooting pages", () => {
  it("name only round config fields that exist", async () => {
    const fields = new Set(listConfigFields());
    const named = new Set((await hintTexts()).flatMap((text) => text.match(FIELD) ?? []));
    // docker.sock is the daemon's socket, not a field.
    const unknown = [...named].filter(
      (field) => field !== "docker.sock" && !fields.has(field) && ![...fields].some((known) => known.startsWith(`${field}.`)),
    );
    expect(unknown).toEqual([]);
  });

  it("are complete for every engine family: each names a hint for every OOM phase", () => {
    for (const family of ["sglang", "vllm", "llama.cpp", null] as const) {
      for (const phase of ["graph_capture", "weights", "kv_cache", "other"] as const)
        expect(failureHintBook(family).cudaOom(phase).length).toBeGreaterThan(80);
    }
  });

  it("point a slow start at weights served from the runner with docker.mounts, which the config now has", () => {
    expect(hints.startupTimeoutHint(1200)).toContain("(`docker.mounts`, read-only)");
    expect(listConfigFields()).toContain("docker.mounts");
  });

  it("name speedgate commands that run as written (the port hint once said `speedgate cleanup`, which needs a flag)", async () => {
    // Every cleanup the hints and pages name, as written (a page's `speedgate run` needs the reader's config).
    const named = new Set(
      (await hintTexts()).flatMap((text) => [...text.matchAll(/`(speedgate cleanup[^`]*)`/g)].map((match) => match[1] ?? "")),
    );
    expect(named).toContain("speedgate cleanup --stale");
    // No daemon answers here: a command that parsed exits 1 after trying; a usage error is exit 2.
    vi.stubEnv("DOCKER_HOST", "unix:///nonexistent/docker.sock");
    try {
      for (const command of named) {
        const { code, logger } = await runCli(command.split(" ").slice(1));
        expect({ command, code, said: logger.lines.map((line) => line.message) }).not.toMatchObject({ code: 2 });
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("hints in the engine's own flags", () => {
  const VLLM_ONLY = [
    "--gpu-memory-utilization",
    "--enforce-eager",
    "--max-model-len",
    "--max-num-seqs",
    "--tensor-parallel-size",
    "import vllm",
    "vLLM",
  ];
  const SGLANG_ONLY = [
    "--mem-fraction-static",
    "--cuda-graph-max-bs",
    "--max-total-tokens",
    "--context-length",
    "--max-running-requests",
    "import sglang",
    "SGLang",
  ];
  const texts = (engine: string): string => {
    const book = failureHintBook(engineFamily(engine));
    return [
      ...(["graph_capture", "weights", "kv_cache", "other"] as const).map((phase) => book.cudaOom(phase)),
      book.hostOomKilled,
      book.importError(null),
    ].join("\n");
  };

  it("pick the family from the round config's engine name, forks included; an unknown engine gets every family's flags", () => {
    expect(engineFamily("sglang")).toBe("sglang");
    expect(engineFamily("SGLang-fork")).toBe("sglang");
    expect(engineFamily("vllm")).toBe("vllm");
    expect(engineFamily("my-vLLM")).toBe("vllm");
    expect(engineFamily("sim")).toBeNull();
  });

  it("give SGLang only SGLang's flags and vLLM only vLLM's", () => {
    const sglang = texts("sglang");
    for (const flag of VLLM_ONLY) expect(sglang).not.toContain(flag);
    expect(sglang).toContain("--mem-fraction-static");
    const vllm = texts("vllm");
    for (const flag of SGLANG_ONLY) expect(vllm).not.toContain(flag);
    expect(vllm).toContain("--gpu-memory-utilization");
    const any = texts("sim");
    for (const flag of ["--mem-fraction-static", "--gpu-memory-utilization"]) expect(any).toContain(flag);
  });
});
