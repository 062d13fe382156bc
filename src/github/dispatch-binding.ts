/*
 * A dispatched scoring run starts on the default branch, so its own head SHA says nothing about the
 * pull request. The app records what it dispatched in the external id of the check run it owns on the
 * pull request's head SHA: only the app can write that, unlike anything inside the artifact.
 */

export interface DispatchBinding {
  pullRequest: number;
  runId: number | null;
}

export function formatDispatchBinding(binding: DispatchBinding): string {
  return `speedgate:pr=${binding.pullRequest}:run=${binding.runId ?? "unknown"}`;
}

export function parseDispatchBinding(externalId: string | null): DispatchBinding | null {
  const match = /^speedgate:pr=(\d+):run=(\d+|unknown)$/.exec(externalId ?? "");
  if (!match?.[1] || !match[2]) return null;
  return { pullRequest: Number(match[1]), runId: match[2] === "unknown" ? null : Number(match[2]) };
}

/** The run name the scoring workflow must set (`run-name`), from which the app learns the SHA to look up. */
export const RUN_NAME_HINT = "run-name: speedgate #${{ inputs.pr }} ${{ inputs.sha }}";

/** The PR number and SHA a dispatched run's title claims; only a hint, checked against the binding. */
export function parseRunTitle(title: string): { pullRequest: number; headSha: string } | null {
  const match = /#(\d+)\b.*\b([0-9a-f]{40})\b/.exec(title);
  if (!match?.[1] || !match[2]) return null;
  return { pullRequest: Number(match[1]), headSha: match[2] };
}
