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

/**
 * A model path the engine's command names that was not there when the engine exited at startup, as the
 * runtime found it (the engine may have died of it without its log saying so).
 */
export interface MissingModel {
  /** The flag that names it, such as "-m" or "--model-path". */
  flag: string;
  /** The path as the command wrote it. */
  path: string;
  /** Where it was looked for: inside the engine's container, or on the runner (runtime: process). */
  where: "container" | "runner";
}

/** How an engine ended: what the classifier needs besides the log. */
export interface EngineExit {
  exitCode: number | null;
  signal: string | null;
  /** Docker's State.OOMKilled, or a process killed by the kernel's OOM killer when that is known. */
  oomKilled: boolean;
  /** Set when the engine's end could not be observed because the runtime lost its host; classified as kind "infrastructure". */
  infrastructure?: InfrastructureLoss;
  /** Set when the engine exited and a model path its command names was not there. */
  missingModel?: MissingModel;
}
