import type { InfrastructureLoss } from "../vocabulary/engine-exit.js";
import type { EngineFailure, EngineRole, FailureStage } from "../vocabulary/engine-failure.js";

export const DAEMON_GONE_LABEL = "the Docker daemon went away (infrastructure, not the patch)";

export const DAEMON_GONE_HINT = [
  "The Docker daemon stopped or restarted while the round ran, so nothing was measured after that; this says nothing about the " +
    "engine or the patch.",
  "Check why it went away (`systemctl status docker`, `journalctl -u docker` or the daemon's log), then rerun the round.",
  "speedgate removes the run's containers and network once the daemon answers again; if any are left, `speedgate cleanup --stale` " +
    "removes them.",
].join(" ");

/** The loss as an engine's exit carries it, from the socket error the daemon's connection ended with. */
export function daemonGoneLoss(role: EngineRole, socketError: string): InfrastructureLoss {
  return {
    label: DAEMON_GONE_LABEL,
    summary: `lost the connection to the Docker daemon while the ${role} engine ran: ${socketError}`,
    hint: DAEMON_GONE_HINT,
  };
}

const DOING: Record<FailureStage, string> = {
  patch: "was being patched",
  build: "was being built",
  startup: "was starting",
  benchmark: "ran",
};

/** The failure for a Docker API call that found no daemon (creating, starting or inspecting a container). */
export function daemonGoneFailure(role: EngineRole, stage: FailureStage, socketError: string, logTail: string[] = []): EngineFailure {
  return {
    engine: role,
    stage,
    kind: "infrastructure",
    label: DAEMON_GONE_LABEL,
    summary: `the Docker daemon did not answer while the ${role} engine ${DOING[stage]}: ${socketError}`,
    hint: DAEMON_GONE_HINT,
    exitCode: null,
    signal: null,
    logTail,
  };
}
