import type { EngineRole } from "../vocabulary/engine-failure.js";
import { EngineFailureError } from "../vocabulary/engine-failure.js";
import { buildCancelledFailure, buildTimedOutFailure, describeBuildFailure } from "./build-failures.js";
import type { ImageBuildOutcome } from "./run-image-build.js";

/**
 * The image an engine's build made, or the build's failure as the engine's (a card, not a crash):
 * its own error, build.timeoutS running out, or a cancelled round. `patchStep` is the overlay's step
 * that applies the patch, whose failure is a conflict rather than a build error.
 */
export function requireBuiltImage(role: EngineRole, outcome: ImageBuildOutcome, patchStep: number | null, timeoutS: number): string {
  switch (outcome.status) {
    case "built":
      return outcome.imageId;
    case "failed":
      throw new EngineFailureError(describeBuildFailure(role, outcome.stream, patchStep));
    case "timed_out":
      throw new EngineFailureError(buildTimedOutFailure(role, `${role} image build`, timeoutS, outcome.lines));
    case "cancelled":
      throw new EngineFailureError(buildCancelledFailure(role, `${role} image build`));
  }
}
