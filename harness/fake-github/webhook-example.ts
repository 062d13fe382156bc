import examples from "@octokit/webhooks-examples";

/**
 * A payload from @octokit/webhooks-examples, deep-copied; `pick` chooses among several examples of
 * the same action. Tests then adjust only the fields they depend on.
 */
export function webhookExample(
  event: string,
  action: string,
  pick: (payload: Record<string, unknown>) => boolean = () => true,
): Record<string, unknown> {
  const group = (examples as unknown as Array<{ name: string; examples: Array<Record<string, unknown>> }>).find(
    (entry) => entry.name === event,
  );
  const found = group?.examples.find((payload) => payload.action === action && pick(payload));
  if (!found) throw new Error(`no ${event}.${action} example in @octokit/webhooks-examples`);
  return structuredClone(found);
}
