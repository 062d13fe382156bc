import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { locateLlamaCpp } from "../../harness/llama-cpp/locate-llama-cpp.js";
import { makeTempDir } from "../support/make-temp-dir.js";

describe("locateLlamaCpp", () => {
  it("takes SPEEDGATE_LLAMA_CPP_DIR when set", async () => {
    const dir = await makeTempDir("speedgate-llama-dir-");
    await writeFile(join(dir, "llama-server"), "#!/bin/sh\n");
    await chmod(join(dir, "llama-server"), 0o755);
    await writeFile(join(dir, "tiny-words.gguf"), "GGUF");
    expect(locateLlamaCpp({ SPEEDGATE_LLAMA_CPP_DIR: dir })).toEqual({
      dir,
      server: join(dir, "llama-server"),
      model: join(dir, "tiny-words.gguf"),
    });
  });

  it("says which file is missing", async () => {
    const dir = await makeTempDir("speedgate-llama-dir-");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "tiny-words.gguf"), "GGUF");
    expect(locateLlamaCpp({ SPEEDGATE_LLAMA_CPP_DIR: dir })).toEqual({
      missing: `${join(dir, "llama-server")} is missing or not executable`,
    });
  });

  it("finds shared/engines/llama-cpp beside the repository or a folder above it, as CI and worktrees have it", () => {
    const found = locateLlamaCpp({});
    // On machines without it, the answer names where it looked.
    if ("missing" in found) expect(found.missing).toContain("../shared/engines/llama-cpp");
    else expect(found.dir).toMatch(/\/shared\/engines\/llama-cpp$/);
  });
});
