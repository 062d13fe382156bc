import examples from "@octokit/webhooks-examples";

/**
 * A payload from @octokit/webhooks-examples, deep-copied; `pick` chooses among several examples of
 * the same action (null: an event without actions, such as push). Tests then adjust only the fields they depend on.
 */
export function webhookExample(
  event: string,
  action: string | null,
  pick: (payload: Record<string, unknown>) => boolean = () => true,
): Record<string, unknown> {
  const group = (examples as unknown as Array<{ name: string; examples: Array<Record<string, unknown>> }>).find(
    (entry) => entry.name === event,
  );
  const found = group?.examples.find((payload) => (action === null ? !("action" in payload) : payload.action === action) && pick(payload));
  if (!found) throw new Error(`no ${event}${action === null ? "" : `.${action}`} example in @octokit/webhooks-examples`);
  return structuredClone(found);
}
