import { afterEach } from "vitest";
import type { SimProfileInput } from "../../../src/sim-engine/sim-profile.js";
import { type SimEngine, type SimEngineOptions, startSimEngine } from "../../../src/sim-engine/start-sim-engine.js";

/**
 * Starts in-process reference engines for a test file and closes every one after each test.
 * `defaults` go to every engine, such as the prompts its profile names by id.
 */
export function useSimEngines(
  defaults: Omit<SimEngineOptions, "profile"> = {},
): (profile: SimProfileInput, options?: Omit<SimEngineOptions, "profile">) => Promise<SimEngine> {
  const engines: SimEngine[] = [];
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((engine) => engine.close()));
  });
  return async (profile, options = {}) => {
    const engine = await startSimEngine({ ...defaults, ...options, profile });
    engines.push(engine);
    return engine;
  };
}
