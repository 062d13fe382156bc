import { formatPercent } from "./describe-card.js";
import type { PromptResult, Scorecard } from "../scorecard-schema.js";
import { countSlack } from "../../scoring/token-slack.js";
import { DEFAULT_MAX_QUALITY_DROP } from "../../scoring/judge-quality.js";

/*
 * Wording about what speedgate vouches for (who counted the tokens, whether the answers agree),
 * shared by the Markdown and the terminal card.
 */

/** Summary rows for the diverged and implausible counts and the median agreement; none for a card from before they existed. */
export function integrityRows(card: Scorecard): string[][] {
  const rows: string[][] = [];
  const settings = card.settings;
  if (card.diverged !== undefined) {
    const within = settings.agreementTokens
      ? `within the first ${settings.agreementTokens} tokens`
      : "(check off: bench.agreementTokens is 0)";
    const share = settings.minPromptAgreement
      ? `, or agreed on no more than ${formatPercent(settings.minPromptAgreement)} of the compared length`
      : "";
    rows.push(["Diverged", `${card.diverged}: answered differently from the baseline ${within}${share}`]);
  }
  if (card.implausible !== undefined && (card.implausible > 0 || settings.tokenizer === null)) {
    rows.push(["Implausible", `${card.implausible}: claimed more tokens than the stream held`]);
  }
  if (card.medianAgreement !== undefined) {
    const bar = card.gate.minAgreement ? ` (gate.minAgreement ${formatPercent(card.gate.minAgreement)})` : "";
    rows.push([
      "Median agreement",
      card.medianAgreement === null
        ? "— (no answers compared)"
        : `${formatPercent(card.medianAgreement)} of the compared tokens are the baseline's answer${bar}`,
    ]);
  }
  if (card.quality) {
    const { scorer, maxTokens, questions } = card.quality;
    const scoredBy = typeof scorer === "object" ? `regex ${scorer.regex}` : scorer;
    const maxDrop = card.gate.quality?.maxDrop ?? DEFAULT_MAX_QUALITY_DROP;
    rows.push([
      "Quality set",
      `${questions.length} questions with reference answers, scorer ${scoredBy}, up to ${maxTokens} tokens each, asked of both engines ` +
        `after the bench in every run; a significant drop of at least ${Math.round(maxDrop * 1000) / 10} points fails ` +
        "(gate.quality.maxDrop)" +
        (card.gate.answers === "quality" ? "; gate.answers: quality" : ""),
    ]);
  }
  if (card.unexplained !== undefined) {
    const limit = card.gate.maxUnexplained !== undefined ? ` (gate.maxUnexplained ${formatPercent(card.gate.maxUnexplained)})` : "";
    rows.push(["Unexplained", `${card.unexplained}: cut short or parted where the baseline's own answers are not${limit}`]);
  }
  return rows;
}

/** One sentence on who counted the tokens, for the settings part of the card. */
export function countingSentence(card: Scorecard): string {
  const tokenizer = card.settings.tokenizer;
  if (tokenizer === undefined) return "";
  if (tokenizer) {
    return (
      `Token counts are speedgate's own: it tokenized each streamed answer with the model's tokenizer (sha256 ` +
      `${tokenizer.slice(0, 12)}…); the engines' own counts are recorded and shown where they differ.`
    );
  }
  return (
    "Token counts are the engines' own usage, bounded by the bytes each stream held and, for the candidate, by the baseline's count of " +
    "the same text: set bench.tokenizer for counts speedgate makes itself."
  );
}

/** Notes that go with a prompt's reason: the engine's claim where it differs from speedgate's count, and a partial agreement. */
export function promptNotes(prompt: PromptResult, card: Scorecard): string[] {
  const notes: string[] = [];
  if (card.settings.tokenizer) {
    for (const [role, side] of [
      ["baseline", prompt.baseline],
      ["candidate", prompt.candidate],
    ] as const) {
      const claimed = side?.claimedTokens;
      const counted = side?.outputTokens;
      if (claimed === null || claimed === undefined || counted === null || counted === undefined) continue;
      if (Math.abs(claimed - counted) > countSlack(counted))
        notes.push(`${role} engine claimed ${claimed} tokens, speedgate counted ${counted}`);
    }
  }
  const branches = describePromptBranches(prompt);
  if (branches) notes.push(branches);
  if (prompt.status === "scored" && typeof prompt.agreement === "number" && prompt.agreement < 1) {
    // Held to every baseline answer (a card with answerPrefixes), an answer that parts from all is timed up to the parting only.
    const timing = prompt.answerPrefixes
      ? "timed only over those, and none the baseline gave"
      : "timed at the full length, scored no faster than over those";
    notes.push(`agreement ${formatPercent(prompt.agreement)}: the answers part after ${prompt.agreedTokens ?? 0} tokens; ${timing}`);
  }
  return notes;
}

/**
 * Where the engine itself answers a prompt more than one way, or a candidate answer was held to another
 * run's: "2 answers seen from the baseline; run 1 against run 3's answer; run 4: none the baseline gave".
 */
function describePromptBranches(prompt: PromptResult): string | null {
  if (!prompt.answerPrefixes) return null;
  const parts: string[] = [];
  if ((prompt.baselineAnswers ?? 0) >= 2) parts.push(`${prompt.baselineAnswers} answers seen from the baseline`);
  const several = prompt.runs.length > 1;
  prompt.runs.forEach((run, index) => {
    if (run.match === "other" && run.baselineRun) parts.push(`run ${index + 1} against run ${run.baselineRun}'s answer`);
    // An unscored run already says why; a scored one that no baseline answer explains is timed to its parting, and counted.
    if (run.match === "none" && run.status === "scored")
      parts.push(several ? `run ${index + 1}: none the baseline gave` : "none the baseline gave");
  });
  return parts.length > 0 ? parts.join("; ") : null;
}

/** The reason cell: the scoring reason, then the notes. */
export function promptReason(prompt: PromptResult, card: Scorecard): string {
  return [prompt.reason, ...promptNotes(prompt, card)].filter((part): part is string => !!part).join("; ");
}
