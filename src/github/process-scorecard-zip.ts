import type { VerdictOutcome } from "../scorecard/decide-verdict.js";
import { describeVerdict } from "../scorecard/render/describe-card.js";
import { type CardFacts, cardFactsFrom } from "../store/card-history.js";
import { type MainRoundFacts, mainRoundFactsFrom } from "../store/main-round-facts.js";
import { type CardDocumentFacts, cardDocumentFactsFrom, gzipCardJson } from "../store/card-documents.js";
import { renderMarkdown } from "../scorecard/render/render-markdown.js";
import { renderMarkdownWithinBytes } from "../scorecard/render/render-markdown-within-bytes.js";
import { describeCheckTitle } from "./describe-check-title.js";
import { MAX_CHECK_SUMMARY_BYTES } from "./publish-check-run.js";
import { ArtifactError, type ZipLimits, readScorecardZip } from "./read-scorecard-zip.js";
import { type RepoGateSettings, regateScorecard } from "./regate-scorecard.js";

export interface ScorecardZipJob {
  zip: Uint8Array;
  source: string;
  limits: ZipLimits;
  /** The repository's gate; without `use`, the round's own rule. */
  gate: RepoGateSettings;
  /** The app's own troubleshooting pages (bot/resolve-app-docs-url.ts), put on the card in place of the artifact's. */
  docsBaseUrl: string | null;
}

export type ScorecardZipResult =
  | {
      ok: true;
      /** The card for the pull request's comment (GitHub's limit in characters). */
      comment: string;
      /** The same card for the check run's summary, fitted to GitHub's limit in UTF-8 bytes with room for a note. */
      checkSummary: string;
      passed: boolean;
      /** The verdict on the patch: `none` when the runner, the baseline or the infrastructure failed instead. */
      outcome: VerdictOutcome;
      /** The check run's title: the verdict's headline, or a round's scenarios in one line. */
      headline: string;
      /** Changed files the workflow's patch-paths left out: scored is only the rest. */
      filesLeftOut: number;
      /** What the app's card history records of it. */
      facts: CardFacts;
      /** What main's series records of it, when it is a watch workflow's card (docs/watching-main.md). */
      mainRound: MainRoundFacts;
      /**
       * The whole re-gated card as gzip-compressed JSON, for its page (the comment folds and cuts it): compressed here, in
       * the worker, since a card at the limits is tens of megabytes of text. And what the runner page reads of it.
       */
      cardGzip: Uint8Array;
      documentFacts: CardDocumentFacts;
    }
  | { ok: false; problem: string };

/** Bytes kept free in the check summary for a line the app puts above the card. */
export const CHECK_NOTE_BYTES = 1_024;

/**
 * Everything the app does with an artifact's bytes, as one pure step: read and validate the card,
 * re-gate it with the repository's bar, render it for the comment and the check. Its cost grows with
 * the card, so the app runs it in a worker thread; only the small result comes back.
 */
export function processScorecardZip(job: ScorecardZipJob): ScorecardZipResult {
  let card;
  try {
    card = readScorecardZip(job.zip, job.source, job.limits);
  } catch (error) {
    if (error instanceof ArtifactError) return { ok: false, problem: error.message };
    throw error;
  }
  const regated = regateScorecard(card, job.gate, job.docsBaseUrl);
  const comment = renderMarkdown(regated);
  const verdict = describeVerdict(regated);
  return {
    ok: true,
    comment,
    checkSummary: renderMarkdownWithinBytes(regated, MAX_CHECK_SUMMARY_BYTES - CHECK_NOTE_BYTES, comment),
    passed: verdict.passed,
    outcome: verdict.outcome,
    headline: describeCheckTitle(regated, verdict),
    filesLeftOut: regated.source?.patchFilter?.leftOutTotal ?? 0,
    facts: cardFactsFrom(regated),
    mainRound: mainRoundFactsFrom(regated),
    cardGzip: gzipCardJson(JSON.stringify(regated)),
    documentFacts: cardDocumentFactsFrom(regated),
  };
}
