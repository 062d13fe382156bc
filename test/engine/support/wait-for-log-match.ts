import type { RunningEngine } from "../../../src/engine/engine-runtime.js";

/** The first line of the engine's log tail that matches, once one does (the test's timeout ends a wait that never does). */
export async function waitForLogMatch(engine: RunningEngine, pattern: RegExp): Promise<RegExpExecArray> {
  for (;;) {
    for (const line of engine.logTail()) {
      const match = pattern.exec(line);
      if (match) return match;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
