import type { BenchSettings } from "./bench-settings-schema.js";
import type { RoundGateSettings } from "./gate-settings-schema.js";
import type { ScenarioSettings } from "./scenario-settings-schema.js";

/** The parsed config's fields a scenario merges into. */
interface ScenarioBase {
  bench: BenchSettings;
  gate: RoundGateSettings;
}

/**
 * The settings a scenario is benchmarked and gated with: `bench` and `gate` with the scenario's own
 * fields over them. Its load is one shape: concurrency makes it a closed loop (the inherited interval
 * and arrival dropped), an interval or arrival an open loop (the inherited concurrency dropped).
 */
export function mergeScenarioConfig<T extends ScenarioBase>(config: T, scenario: ScenarioSettings): T {
  const { name: _name, gate, concurrency, requestIntervalMs, arrival, ...overrides } = scenario;
  const bench = config.bench;
  const inheritedOpen = bench.concurrency === null;
  const load =
    concurrency !== undefined
      ? { requestIntervalMs: 0, arrival: "fixed" as const, concurrency }
      : requestIntervalMs !== undefined || arrival !== undefined
        ? {
            requestIntervalMs: requestIntervalMs ?? (inheritedOpen ? bench.requestIntervalMs : 0),
            arrival: arrival ?? (inheritedOpen ? bench.arrival : "fixed"),
            concurrency: null,
          }
        : {};
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)) as Partial<BenchSettings>;
  return { ...config, bench: { ...bench, ...defined, ...load }, gate: { ...config.gate, ...gate } };
}
