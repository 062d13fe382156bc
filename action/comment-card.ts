import type { GitHubClient } from "../src/github/github-client.js";
import { upsertCardComment } from "../src/github/upsert-card-comment.js";
import type { Logger } from "../src/logger.js";
import type { Scorecard } from "../src/scorecard/scorecard-schema.js";
import type { ActionContext } from "./action-context.js";
import type { ActionSettings } from "./action-settings.js";
import { requireToken } from "./require-token.js";

export interface CommentRequest {
  settings: ActionSettings;
  card: Scorecard;
  markdown: string;
  context: ActionContext;
  createClient: (token: string) => GitHubClient;
  logger: Logger;
}

/**
 * `comment: true`: the card on the pull request, one comment kept up to date (the app's code). Only
 * warns when it cannot: the card is in the summary and the artifact either way.
 */
export async function commentCard(request: CommentRequest): Promise<void> {
  const { settings, card, context, logger } = request;
  const number = card.source?.pullRequest ?? null;
  if (!context.repository || number === null) {
    logger.warn(`comment: true, but this run is not about a pull request (${context.eventName || "unknown"} event); not commenting`);
    return;
  }
  try {
    const client = request.createClient(requireToken(settings, "that may comment on the pull request"));
    const result = await upsertCardComment(client, { ...context.repository, issueNumber: number, body: request.markdown });
    logger.info(`Card comment ${result.action} on #${number}`);
  } catch (error) {
    // A fork's pull request gets a read-only token.
    logger.warn(
      `Could not comment the card on #${number} (${(error as Error).message}); a fork's pull request gets a read-only token, the app ` +
        `can comment instead`,
    );
  }
}
