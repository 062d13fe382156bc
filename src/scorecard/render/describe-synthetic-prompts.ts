import { cleanLogLine } from "../../safe-text/sanitize-log-tail.js";
import type { Scorecard } from "../scorecard-schema.js";

interface LengthTally {
  exact: number;
  answers: number;
}

/** Each engine's answers over every run, and how many were exactly the asked length (by the card's own token counts). */
function tallyFixedLength(card: Pick<Scorecard, "prompts">, outputTokens: number): { baseline: LengthTally; candidate: LengthTally } {
  const baseline: LengthTally = { exact: 0, answers: 0 };
  const candidate: LengthTally = { exact: 0, answers: 0 };
  for (const prompt of card.prompts) {
    for (const run of prompt.runs) {
      for (const [tally, tokens] of [
        [baseline, run.baselineTokens],
        [candidate, run.candidateTokens],
      ] as const) {
        if (tokens === null) continue;
        tally.answers++;
        if (tokens === outputTokens) tally.exact++;
      }
    }
  }
  return { baseline, candidate };
}

/**
 * The prompts of a card in a few words, for a table of scenarios: "16 synthetic, 128→256 tokens",
 * "24 from prompts/chat.jsonl", or "24 from a prompt file" on a card that does not name its file.
 * Plain text with no control characters (the card may be read back from an artifact); the Markdown
 * card escapes it further.
 */
export function describePromptSource(card: Pick<Scorecard, "settings" | "promptsTotal">): string {
  const synthetic = card.settings.synthetic;
  if (synthetic) return `${synthetic.count} synthetic, ${synthetic.inputTokens}→${synthetic.outputTokens} tokens`;
  const file = card.settings.promptsSource ? cleanLogLine(card.settings.promptsSource) : "";
  return `${card.promptsTotal} from ${file || "a prompt file"}`;
}

/**
 * For a round on synthetic prompts, the method section's sentence: what the prompts were, and
 * whether each engine honoured the fixed answer length (ignore_eos). An engine that ended answers
 * early anyway answered less, so its speed was compared on shorter answers than asked. Empty for a
 * round on a prompt file.
 */
export function describeSyntheticPrompts(card: Pick<Scorecard, "settings" | "prompts">): string {
  const synthetic = card.settings.synthetic;
  if (!synthetic) return "";
  const { inputTokens, outputTokens, count, seed } = synthetic;
  const tally = tallyFixedLength(card, outputTokens);
  // A prompt-processing round asks for a single token.
  const answerLength = `${outputTokens} token${outputTokens === 1 ? "" : "s"}`;
  const held = (name: string, { exact, answers }: LengthTally): string =>
    answers === 0 ? `the ${name} gave no answer` : `the ${name} answered exactly ${answerLength} in ${exact} of ${answers} answers`;
  const honoured = [tally.baseline, tally.candidate].every(({ exact, answers }) => answers > 0 && exact === answers);
  const verdict = honoured
    ? "The engines honoured the fixed length: every answer was exactly that long."
    : "The fixed length was not honoured throughout: an engine ended answers early despite ignore_eos, so those prompts were compared " +
      "at the shorter length.";
  return (
    `Prompts: ${count} synthetic prompts of exactly ${inputTokens} tokens each by the round's tokenizer (seed ${seed}), ` +
    `each asking for exactly ${answerLength} with the engine's ignore_eos, so every answer should be that long and the comparison ` +
    `measures speed alone; ` +
    `${held("baseline", tally.baseline)}, ${held("candidate", tally.candidate)}. ${verdict}`
  );
}
