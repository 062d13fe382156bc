/** The load settings a config and a card both carry: concurrency is null under an open loop. */
export interface LoadSettings {
  requestIntervalMs: number;
  arrival: "fixed" | "poisson";
  concurrency?: number | null | undefined;
}

/**
 * The round's load in words, the same on the card and in `run --check`'s plan: "concurrency 8" for
 * a closed loop, else the pace ("one every 250 ms", "one every 250 ms on average (Poisson)").
 */
export function describeLoad(load: LoadSettings): string {
  if (load.concurrency !== null && load.concurrency !== undefined) return `concurrency ${load.concurrency}`;
  return `one every ${load.requestIntervalMs} ms${load.arrival === "poisson" ? " on average (Poisson)" : ""}`;
}
