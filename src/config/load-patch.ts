import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { findDiffCorruption } from "../patch/find-diff-corruption.js";
import { ConfigError } from "../vocabulary/config-error.js";

/** Larger patches are almost always a vendored tree or a build artefact by mistake, not a speed-up. */
export const MAX_PATCH_BYTES = 10 * 1024 * 1024;

export interface LoadedPatch {
  path: string;
  bytes: Buffer;
  /** sha256 of the patch bytes, written on the card so a score is tied to exactly one patch. */
  sha256: string;
}

export function hashPatch(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Validates patch bytes from any source (a file, the pull request's diff) the same way. */
export function checkPatchBytes(bytes: Buffer, label: string): void {
  if (bytes.length === 0) throw new ConfigError(`${label}: expected a non-empty patch, got an empty file`);
  if (bytes.length > MAX_PATCH_BYTES) {
    throw new ConfigError(
      `${label}: expected a patch of at most ${MAX_PATCH_BYTES / 1024 / 1024} MiB, got ${(bytes.length / 1024 / 1024).toFixed(1)} MiB`,
    );
  }
  if (bytes.includes(0)) {
    throw new ConfigError(`${label}: expected a text patch (git diff or diff -u), got binary data (it contains NUL bytes)`);
  }
  const text = bytes.toString("utf8");
  if (!/^(diff --git |--- |\+\+\+ |@@ )/m.test(text)) {
    throw new ConfigError(`${label}: expected a unified diff (lines starting with "diff --git", "---" or "@@"), found none`);
  }
  const corruption = findDiffCorruption(text);
  if (corruption) throw new ConfigError(`${label}: expected a well-formed unified diff, but ${corruption}`);
}

export async function loadPatch(path: string, label = "candidate.patch"): Promise<LoadedPatch> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new ConfigError(
      `${label}: expected a readable patch file, could not read ${path} ` +
        `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  checkPatchBytes(bytes, `${label} (${path})`);
  return { path, bytes, sha256: hashPatch(bytes) };
}
