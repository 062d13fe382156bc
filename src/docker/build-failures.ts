import { findCompilerError } from "../failure/find-compiler-error.js";
import type { EngineFailure, EngineRole, FailureKind, FailureStage } from "../vocabulary/engine-failure.js";
import { CONFLICT_BEGIN, CONFLICT_END, PATCH_EXIT, PATCH_MARKER } from "./apply-patch-script.js";
import type { BuildStreamResult } from "./follow-build-stream.js";

const HINTS: Partial<Record<FailureKind, string>> = {
  patch_conflict:
    "Rebase the pull request on the baseline the config names (baseline.image or baseline.build), or point baseline at the commit " +
    "the patch was made against.",
  patch_tool_missing: "Install git or patch in the baseline image, or build the candidate with candidate.build instead of an overlay.",
  build_error:
    "Read the last build lines: a postPatch command or a Dockerfile step failed. Run the same build locally with `docker build` to " +
    "reproduce.",
  build_timeout: "Raise build.timeoutS, or make the build faster (cache the heavy layers in the baseline image).",
  image_missing:
    "Pull or build the image on this runner first (`docker pull` / `docker build -t`), or check the reference for typos and registry " +
    "credentials.",
};

export function buildFailure(options: {
  role: EngineRole;
  stage: FailureStage;
  kind: FailureKind;
  label: string;
  summary: string;
  logTail: string[];
}): EngineFailure {
  return {
    engine: options.role,
    stage: options.stage,
    kind: options.kind,
    label: options.label,
    summary: options.summary,
    hint: HINTS[options.kind] ?? "",
    exitCode: null,
    signal: null,
    logTail: options.logTail,
  };
}

/** A build that build.timeoutS ended; `build` names it for the summary ("candidate image build"). */
export function buildTimedOutFailure(role: EngineRole, build: string, timeoutS: number, logTail: string[]): EngineFailure {
  return buildFailure({
    role,
    stage: "build",
    kind: "build_timeout",
    label: `the build did not finish within ${timeoutS} s`,
    summary: `build.timeoutS (${timeoutS} s) ended the ${build}`,
    logTail,
  });
}

/** A build the round's cancellation stopped; `build` names it for the summary ("candidate image build"). */
export function buildCancelledFailure(role: EngineRole, build: string): EngineFailure {
  return buildFailure({ role, stage: "build", kind: "cancelled", label: "cancelled", summary: `the ${build} was cancelled`, logTail: [] });
}

function nonZeroCode(error: string): number | null {
  const match = /returned a non-zero code: (\d+)/.exec(error);
  return match?.[1] ? Number(match[1]) : null;
}

const stripMarker = (line: string): string =>
  line.replace(new RegExp(`^${PATCH_MARKER} ?\\| ?`), "").replace(new RegExp(`^${PATCH_MARKER} ?`), "");

/**
 * What a failed build means for the card. The patch step is recognised by its step number and its
 * own exit codes; its output, marker-prefixed, becomes the log tail (the rejected hunks for a
 * conflict). Anything else failing is a build error with the build's last lines.
 */
export function describeBuildFailure(role: EngineRole, result: BuildStreamResult, patchStep: number | null): EngineFailure {
  const error = result.error ?? "the build failed";
  const code = nonZeroCode(error);
  const inPatchStep = patchStep !== null && result.lastStep === patchStep;
  if (inPatchStep && (code === PATCH_EXIT.conflict || code === PATCH_EXIT.sourceDirMissing)) {
    const begin = result.lines.indexOf(CONFLICT_BEGIN);
    const end = result.lines.indexOf(CONFLICT_END);
    const rejected = begin >= 0 ? result.lines.slice(begin + 1, end > begin ? end : undefined) : [];
    const said = result.lines.filter((line) => line.startsWith(PATCH_MARKER) && !line.includes("|"));
    const reason = said.find((line) => /does not apply|does not exist/.test(line)) ?? said[said.length - 1] ?? error;
    return buildFailure({
      role,
      stage: "patch",
      kind: "patch_conflict",
      label: code === PATCH_EXIT.conflict ? "the patch does not apply to the baseline's source" : "the source folder is not in the image",
      summary: stripMarker(reason),
      logTail: (rejected.length > 0 ? rejected : said).map(stripMarker),
    });
  }
  if (inPatchStep && code === PATCH_EXIT.toolMissing) {
    const said = result.lines.filter((line) => line.startsWith(PATCH_MARKER));
    return buildFailure({
      role,
      stage: "patch",
      kind: "patch_tool_missing",
      label: "the baseline image has neither git nor patch",
      summary: stripMarker(said[said.length - 1] ?? error),
      logTail: said.map(stripMarker),
    });
  }
  return buildFailure({
    role,
    stage: "build",
    kind: "build_error",
    label: inPatchStep ? "the patch step could not run" : "the image build failed",
    // A compiler's first error says what broke; the daemon's "returned a non-zero code" only that something did.
    summary: findCompilerError(result.lines) ?? error.trim(),
    logTail: result.lines,
  });
}
