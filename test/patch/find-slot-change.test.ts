import { describe, expect, it } from "vitest";
import { findEngineSlots, findSlotChange } from "../../src/patch/find-slot-change.js";

const diff = (file: string, removed: string, added: string): string =>
  [`diff --git a/${file} b/${file}`, `--- a/${file}`, `+++ b/${file}`, "@@ -3 +3 @@", `-${removed}`, `+${added}`, ""].join("\n");

describe("findSlotChange: a pull request that changes how many requests the engine serves at once", () => {
  it("finds llama.cpp's, vLLM's and SGLang's slot flags and settings in the pull request's diff", () => {
    expect(findSlotChange({ diff: diff("serve.sh", "exec llama-server -np 1 -m m.gguf", "exec llama-server -np 4 -m m.gguf") })).toBe(
      "-np changed in serve.sh",
    );
    expect(findSlotChange({ diff: diff("serve.sh", "  --parallel 1 \\\\", "  --parallel 4 \\\\") })).toBe("--parallel changed in serve.sh");
    expect(findSlotChange({ diff: diff("vllm/config.py", "    max_num_seqs: int = 128", "    max_num_seqs: int = 256") })).toBe(
      "max_num_seqs changed in vllm/config.py",
    );
    expect(
      findSlotChange({ diff: diff("python/sglang/srt/server_args.py", "max_running_requests = None", "max_running_requests = 64") }),
    ).toBe("max_running_requests changed in python/sglang/srt/server_args.py");
    expect(findSlotChange({ diff: diff("tools/server/server.cpp", "params.n_parallel = 1;", "params.n_parallel = 4;") })).toBe(
      "n_parallel changed in tools/server/server.cpp",
    );
  });

  it("finds a candidate.command that sets other slots than the baseline's", () => {
    expect(
      findSlotChange({ diff: null, baselineCommand: ["llama-server", "-np", "1"], candidateCommand: ["llama-server", "-np", "4"] }),
    ).toBe("-np 1 → -np 4 in candidate.command");
    expect(
      findSlotChange({ diff: null, baselineCommand: ["vllm", "serve"], candidateCommand: ["vllm", "serve", "--max-num-seqs=512"] }),
    ).toBe("the default → --max-num-seqs 512 in candidate.command");
  });

  it("finds nothing in a change that leaves the slots alone, even one naming a flag in context or in another word", () => {
    expect(findSlotChange({ diff: diff("kernel.cu", "float x = a * b;", "float x = __fmul_rn(a, b);") })).toBeNull();
    const context = ["--- a/serve.sh", "+++ b/serve.sh", "@@ -1,2 +1,2 @@", " exec llama-server -np 4", "-# old", "+# new", ""].join("\n");
    expect(findSlotChange({ diff: context })).toBeNull();
    expect(findSlotChange({ diff: diff("docs.md", "the parallel-np-ish flag", "a --parallelism note") })).toBeNull();
    expect(findSlotChange({ diff: null, baselineCommand: ["serve", "-np", "2"], candidateCommand: ["serve", "-np", "2"] })).toBeNull();
    expect(findSlotChange({ diff: null })).toBeNull();
  });
});

describe("findEngineSlots: the baseline's parallel slots as its command sets them", () => {
  it("reads llama.cpp's, vLLM's and SGLang's slot flags, spaced or with =, and nothing else", () => {
    expect(findEngineSlots(["llama-server", "-m", "m.gguf", "-np", "4", "-t", "1"])).toEqual({ slots: 4, setting: "-np 4" });
    expect(findEngineSlots(["vllm", "serve", "m", "--max-num-seqs=256"])).toEqual({ slots: 256, setting: "--max-num-seqs 256" });
    expect(findEngineSlots(["python", "-m", "sglang.launch_server", "--max-running-requests", "32"])).toEqual({
      slots: 32,
      setting: "--max-running-requests 32",
    });
    // Written twice (a harness's default, then the test's own): the engine serves the last.
    expect(findEngineSlots(["llama-server", "-np", "1", "-t", "1", "-np", "4"])).toEqual({ slots: 4, setting: "-np 4" });
    // A script that sets them itself, a value from the environment, no command: the card cannot tell.
    expect(findEngineSlots(["./serve.sh"])).toBeNull();
    expect(findEngineSlots(["llama-server", "-np", "$SLOTS"])).toBeNull();
    expect(findEngineSlots(["llama-server", "-np", "0"])).toBeNull();
    expect(findEngineSlots(undefined)).toBeNull();
  });
});
