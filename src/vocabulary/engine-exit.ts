/**
 * The runtime lost what runs the engine (the Docker daemon went away), so the engine's end says
 * nothing about the engine or the patch. The runtime words it, since only it knows its host.
 */
export interface InfrastructureLoss {
  /** Such as "the Docker daemon went away (infrastructure, not the patch)". */
  label: string;
  /** The one line that shows it, such as the socket error the daemon's connection ended with. */
  summary: string;
  hint: string;
}

/** How an engine ended: what the classifier needs besides the log. */
export interface EngineExit {
  exitCode: number | null;
  signal: string | null;
  /** Docker's State.OOMKilled, or a process killed by the kernel's OOM killer when that is known. */
  oomKilled: boolean;
  /** Set when the engine's end could not be observed because the runtime lost its host; classified as kind "infrastructure". */
  infrastructure?: InfrastructureLoss;
}
