import type { EngineRuntime, PreparedEngine, RunningEngine } from "../../src/engine/engine-runtime.js";
import type { Prompt } from "../../src/prompts/prompt.js";
import type { SimProfileInput } from "../../src/sim-engine/sim-profile.js";
import { startSimEngine } from "../../src/sim-engine/start-sim-engine.js";
import type { EngineExit } from "../../src/vocabulary/engine-exit.js";
import type { EngineRole } from "../../src/vocabulary/engine-failure.js";
import type { SimRoundOptions } from "./write-sim-round.js";

/** The config of a round SimRuntime runs (writeSimRound's options): its command and port are never used, its health check polls fast. */
export const SIM_RUNTIME_ROUND = {
  port: 1,
  engine: "test",
  baseline: { command: ["unused"] },
  health: { timeoutS: 30, intervalMs: 20 },
} satisfies Partial<SimRoundOptions>;

/** What a test may do as the round runner calls the runtime: fail a preparation, act on a started engine. */
export interface SimRuntimeHooks {
  prepare?: (role: EngineRole) => void;
  afterStart?: (role: EngineRole, engine: RunningEngine) => void;
}

/**
 * A runtime whose engines are in-process reference engines on the given profiles, answering every
 * prompt the round may send (matched by content), and recording each start and stop it was asked for.
 */
export class SimRuntime implements EngineRuntime {
  readonly name = "process" as const;
  readonly calls: string[] = [];
  constructor(
    private readonly profiles: Record<EngineRole, SimProfileInput>,
    private readonly prompts: readonly Prompt[],
    private readonly hooks: SimRuntimeHooks = {},
  ) {}

  prepare(role: EngineRole): Promise<PreparedEngine> {
    this.calls.push(`prepare ${role}`);
    this.hooks.prepare?.(role);
    return Promise.resolve({ role, imageId: `sha256:${role}`, patchHash: role === "candidate" ? "f".repeat(64) : null });
  }

  async start(role: EngineRole): Promise<RunningEngine> {
    this.calls.push(`start ${role}`);
    let settleExit: (exit: EngineExit) => void = () => undefined;
    const exited = new Promise<EngineExit>((resolve) => (settleExit = resolve));
    const sim = await startSimEngine({
      profile: this.profiles[role],
      prompts: this.prompts,
      onDie: (exitCode) => settleExit({ exitCode, signal: null, oomKilled: false }),
    });
    const engine: RunningEngine = {
      role,
      baseUrl: sim.url,
      exited,
      logTail: () => ["RuntimeError: the simulated engine died"],
      stop: async () => {
        this.calls.push(`stop ${role}`);
        await sim.close();
        settleExit({ exitCode: null, signal: "SIGTERM", oomKilled: false });
      },
    };
    this.hooks.afterStart?.(role, engine);
    return engine;
  }

  dispose(): Promise<void> {
    this.calls.push("dispose");
    return Promise.resolve();
  }
}
