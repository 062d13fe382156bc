import type { Context } from "probot";
import type { AppDeps } from "./app-deps.js";
import type { WorkRequest } from "../work/app-work.js";

/**
 * A webhook handler that does no work itself: it reads the delivery (no API call), and either stores the
 * work it asks for or says why there is none. Probot answers GitHub when this returns (200) or throws
 * (500): the delivery is acknowledged only once its work is stored. Each delivery gets one log line
 * naming its work (`work`, `stored`) or none, which operators and the tests follow.
 */
export function intakeDelivery<C extends Context>(
  deps: AppDeps,
  decide: (context: C) => Promise<WorkRequest | string> | WorkRequest | string,
): (context: C) => Promise<void> {
  return async (context) => {
    const decision = await decide(context);
    if (typeof decision === "string") {
      context.log.info({ delivery: context.id, work: null }, `delivery ${context.id}: nothing to do (${decision})`);
      return;
    }
    const { stored } = await deps.store.work.submit(decision);
    context.log.info(
      { delivery: context.id, work: decision.key, stored },
      stored
        ? `delivery ${context.id}: stored ${decision.task} ${decision.key}`
        : `delivery ${context.id}: ${decision.key} was stored before (the same delivery, or the same payload under another id); ` +
            `ignoring the copy`,
    );
  };
}

/** The installation a delivery came from: its jobs authenticate as it. */
export function installationOf(context: Context): number | null {
  const installation = (context.payload as { installation?: { id?: unknown } }).installation;
  return typeof installation?.id === "number" ? installation.id : null;
}
