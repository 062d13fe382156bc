import type { EngineRuntime, PreparedEngine, RunningEngine } from "../../../src/engine/engine-runtime.js";
import type { EngineRole } from "../../../src/vocabulary/engine-failure.js";

/**
 * Passes every call to the real runtime and keeps the engines it started, so a test can check
 * afterwards that each engine's whole process group is gone.
 */
export class RecordingRuntime implements EngineRuntime {
  readonly started: RunningEngine[] = [];

  constructor(private readonly inner: EngineRuntime) {}

  get name(): EngineRuntime["name"] {
    return this.inner.name;
  }

  prepare(role: EngineRole, signal: AbortSignal): Promise<PreparedEngine> {
    return this.inner.prepare(role, signal);
  }

  async start(role: EngineRole, signal: AbortSignal): Promise<RunningEngine> {
    const engine = await this.inner.start(role, signal);
    this.started.push(engine);
    return engine;
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }

  /** Process group ids of the engines started (the process runtime's leaders lead their groups). */
  processGroups(): number[] {
    return this.started.map((engine) => {
      const pid = (engine as RunningEngine & { pid?: unknown }).pid;
      if (typeof pid !== "number") throw new Error(`the ${engine.role} engine has no pid: not the process runtime`);
      return pid;
    });
  }
}
