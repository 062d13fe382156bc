import { findClosestName } from "../vocabulary/find-closest-name.js";

/** The placeholders each runtime fills in an engine's command; anything else in braces reaches the engine as written. */
export const COMMAND_PLACEHOLDERS = {
  process: ["port", "host", "contextLimit", "model", "node", "speedgate"],
  docker: ["port", "host", "contextLimit", "model"],
} as const satisfies Record<"process" | "docker", readonly string[]>;

/** `{name}` not after a `$`: a shell's `${HOME}` in `sh -c` is the shell's, not ours. */
const PLACEHOLDER = /(?<!\$)\{([A-Za-z][A-Za-z0-9_]*)\}/g;

/**
 * Why each placeholder in a command is one the runtime will not fill, or nothing. An unfilled
 * `{hots}` reaches the engine as a host name it cannot bind, and the card would then blame the port.
 */
export function findUnknownPlaceholders(command: readonly string[], runtime: "process" | "docker"): { index: number; problem: string }[] {
  const known: readonly string[] = COMMAND_PLACEHOLDERS[runtime];
  const problems: { index: number; problem: string }[] = [];
  command.forEach((argument, index) => {
    for (const match of argument.matchAll(PLACEHOLDER)) {
      const name = match[1] ?? "";
      if (known.includes(name)) continue;
      const meant = findClosestName(name, known);
      const other =
        runtime === "docker" && (COMMAND_PLACEHOLDERS.process as readonly string[]).includes(name)
          ? ` ({${name}} is the process runtime's: a path on the host means nothing inside an image)`
          : "";
      problems.push({
        index,
        problem:
          `expected only the placeholders runtime: ${runtime} fills (${known.map((entry) => `{${entry}}`).join(", ")}); {${name}} is ` +
          `none of them${other}${meant ? ` (did you mean {${meant}}?)` : ""}`,
      });
    }
  });
  return problems;
}
