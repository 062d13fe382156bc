import { dirname } from "node:path";
import { cleanLogLine } from "../safe-text/sanitize-log-tail.js";
import type { EngineFailure, EngineRole } from "../vocabulary/engine-failure.js";
import { EngineFailureError } from "../vocabulary/engine-failure.js";
import { PATCH_CONFLICT_HINT, PATCH_TOOL_MISSING_HINT } from "../failure/failure-hints.js";
import { type ToolResult, runTool } from "./run-tool.js";

/** Old-side start line of every hunk, per file the patch touches, to turn "file:line" into "hunk #n". */
function hunkStarts(patchText: string): Map<string, number[]> {
  const hunks = new Map<string, number[]>();
  let file: string | null = null;
  for (const line of patchText.split("\n")) {
    const header = /^(?:---|\+\+\+) (?:[ab]\/)?(\S+)/.exec(line);
    if (header?.[1] && header[1] !== "/dev/null") {
      file = header[1];
      if (!hunks.has(file)) hunks.set(file, []);
      continue;
    }
    const hunk = /^@@ -(\d+)/.exec(line);
    if (hunk?.[1] && file) hunks.get(file)?.push(Number(hunk[1]));
  }
  return hunks;
}

/** The first thing that failed, in words: which file and which hunk. */
export function describePatchFailure(output: string, patchText: string): string {
  const gitHunk = /patch failed: (.+):(\d+)/.exec(output);
  if (gitHunk?.[1] && gitHunk[2]) {
    const line = Number(gitHunk[2]);
    const index = hunkStarts(patchText).get(gitHunk[1])?.indexOf(line) ?? -1;
    const which = index >= 0 ? `hunk #${index + 1} (at line ${line})` : `the hunk at line ${line}`;
    return `${gitHunk[1]}: ${which} does not apply`;
  }
  const patchFile = /(?:patching|checking) file '?([^'\n]+)'?\n(?:[^\n]*\n)*?Hunk #(\d+) FAILED at (\d+)/.exec(output);
  if (patchFile?.[1] && patchFile[2] && patchFile[3]) {
    return `${patchFile[1]}: hunk #${patchFile[2]} (at line ${patchFile[3]}) does not apply`;
  }
  const missing =
    /error: (.+?): (?:No such file or directory|does not exist in index)/.exec(output) ??
    /can't find file to patch[\s\S]*?\+\+\+ (?:b\/)?(\S+)/.exec(output);
  if (missing?.[1]) return `${missing[1]}: the file the patch changes does not exist in the source`;
  const exists = /error: (.+?): already exists in working directory/.exec(output);
  if (exists?.[1]) return `${exists[1]}: the file the patch creates already exists`;
  const corrupt = /corrupt patch at line (\d+)|malformed patch at line (\d+)/.exec(output);
  if (corrupt) return `the patch is malformed at line ${corrupt[1] ?? corrupt[2]}`;
  const lastLine = output.trim().split("\n").pop();
  return lastLine ? `the patch does not apply: ${lastLine}` : "the patch does not apply";
}

function patchFailure(role: EngineRole, kind: EngineFailure["kind"], summary: string, result: ToolResult | null): EngineFailureError {
  const logTail = (result?.output ?? "")
    .split("\n")
    .filter((line, index, all) => line !== "" || index < all.length - 1)
    .map(cleanLogLine);
  return new EngineFailureError({
    engine: role,
    stage: "patch",
    kind,
    label: kind === "patch_tool_missing" ? "no tool to apply the patch" : "the patch does not apply",
    summary,
    hint: kind === "patch_tool_missing" ? PATCH_TOOL_MISSING_HINT : PATCH_CONFLICT_HINT,
    exitCode: result?.exitCode ?? null,
    signal: result?.signal ?? null,
    logTail,
  });
}

/**
 * Applies a unified diff to a folder for real: checks first so a conflict leaves the folder as it
 * was, with git when it exists (it understands renames and binary headers), else GNU patch.
 */
export async function applyPatch(options: {
  dir: string;
  patchPath: string;
  patchText: string;
  role: EngineRole;
  signal: AbortSignal;
}): Promise<{ tool: "git" | "patch" }> {
  // Keeps git from treating an enclosing repository as the one to patch.
  const env = { ...process.env, GIT_CEILING_DIRECTORIES: dirname(options.dir) };
  const run = (argv: string[]) => runTool(argv, { cwd: options.dir, env, signal: options.signal, timeoutMs: 120_000 });
  const tools: Array<{ tool: "git" | "patch"; check: string[]; apply: string[] }> = [
    {
      tool: "git",
      check: ["git", "apply", "--check", "--verbose", "--whitespace=nowarn", options.patchPath],
      apply: ["git", "apply", "--whitespace=nowarn", options.patchPath],
    },
    {
      tool: "patch",
      check: ["patch", "-p1", "--dry-run", "--batch", "--forward", "-i", options.patchPath],
      apply: ["patch", "-p1", "--batch", "--forward", "-i", options.patchPath],
    },
  ];
  for (const { tool, check, apply } of tools) {
    const checked = await run(check);
    if (checked.missing) continue;
    if (options.signal.aborted) throw options.signal.reason;
    if (checked.exitCode !== 0)
      throw patchFailure(options.role, "patch_conflict", describePatchFailure(checked.output, options.patchText), checked);
    const applied = await run(apply);
    if (applied.exitCode !== 0)
      throw patchFailure(options.role, "patch_conflict", describePatchFailure(applied.output, options.patchText), applied);
    return { tool };
  }
  throw patchFailure(options.role, "patch_tool_missing", "neither git nor patch is installed", null);
}
