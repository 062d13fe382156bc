import { decideVerdict } from "../decide-verdict.js";
import type { Scorecard } from "../scorecard-schema.js";
import { explainCudaOom } from "./explain-cuda-oom.js";

/** Who has to act on a failed round, and what to do, as a crash card says it before any table. */
export interface WhoActs {
  /** "For the author of the pull request:", "Not the patch. For the runner's maintainers:". */
  lead: string;
  /** Plain text with Markdown code spans for commands; render with renderWithCodeSpans. */
  text: string;
}

const RESCORE = "comment `/rescore`";
/** Failures of the candidate's engine that say nothing about the patch: the runner could not give it a GPU, an image or a container. */
const RUNNER_KINDS = new Set(["gpu_unavailable", "image_missing", "container_refused"]);

/**
 * Who acts on the card's failure: the author when the engine with the patch failed where the baseline did not,
 * the runner's maintainers when the baseline, the runner or what ran the engines did. A CUDA out-of-memory is
 * told apart by the GPU's state (explainCudaOom). Null for a card without a failure.
 */
export function describeWhoActs(card: Scorecard): WhoActs | null {
  const failure = card.failure;
  if (!failure) return null;
  const oom = explainCudaOom(card);
  if (oom) return { lead: oom.lead, text: oom.text };
  const maintainers = (what: string): WhoActs => ({
    lead: "Not the patch. For the runner's maintainers:",
    text: `${what}, so the round measured nothing about the patch: fix it with the hint below, then ${RESCORE}.`,
  });
  switch (decideVerdict(card).cause) {
    case "baseline":
      return maintainers("the unpatched baseline failed");
    case "infrastructure":
      return maintainers("what ran the engines failed");
    case "image":
      return maintainers("the engine image could not be brought to the base commit");
    case "runner":
      return maintainers("the runner's GPU was held by other work before the candidate started");
    default:
      break;
  }
  if (failure.kind === "cancelled") {
    return { lead: "Nobody's fault:", text: `the run was cancelled before it finished; ${RESCORE} to score the commit again.` };
  }
  if (RUNNER_KINDS.has(failure.kind)) return maintainers(`the runner could not start the candidate's engine (${failure.label})`);
  const where = failure.frames && failure.frames.length > 0 ? "the error and frames below say where" : "the error below says where";
  switch (failure.stage) {
    case "patch":
      return {
        lead: "For the author of the pull request:",
        text: `the changes do not apply to the engine the baseline was made from: rebase them on the base branch, push, and ${RESCORE}.`,
      };
    case "build":
      return {
        lead: "For the author of the pull request:",
        text: `the engine with the patch does not build where the baseline did; ${where}. Fix it, push, and ${RESCORE}.`,
      };
    default:
      return {
        lead: "For the author of the pull request:",
        text:
          `the baseline, the same engine without the patch, ran the same command on this runner without failing, so the patch is ` +
          `where to look: ${where}. Fix it, push, and ${RESCORE}.`,
      };
  }
}
