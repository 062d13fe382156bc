/**
 * What the test run could not use, gathered from the global setups (all of which run in vitest's
 * main process) and said once more after vitest's summary, where a reader of the run looks last:
 * a skip notice above hundreds of lines of engine output is a skip in silence.
 */
export interface MissingPrerequisite {
  /** What is missing, such as "a Docker daemon". */
  what: string;
  /** The tests that were skipped for it, such as "the Docker tests (test/docker, test/e2e/*docker*)". */
  skipped: string;
  /** Why it is missing, as the check found it. */
  reason: string;
  /** The exact commands or setting that bring it, such as "sudo apt-get install busybox-static". */
  fix: string;
  /** The variable that turns this skip into an error (CI sets it). */
  requireVariable: string;
}

const missing: MissingPrerequisite[] = [];

/** Records a missing prerequisite and says so at once, on stderr; the summary after the run repeats it. */
export function reportMissingPrerequisite(prerequisite: MissingPrerequisite): void {
  missing.push(prerequisite);
  process.stderr.write(`\nspeedgate: SKIPPING ${prerequisite.skipped}: ${prerequisite.reason}.\n  To run them: ${prerequisite.fix}\n`);
}

/** The closing block, or "" when nothing was skipped for lack of something. */
export function renderMissingPrerequisites(list: readonly MissingPrerequisite[] = missing): string {
  if (list.length === 0) return "";
  const lines = [
    "",
    `speedgate: ${list.length} group${list.length === 1 ? " of tests was" : "s of tests were"} SKIPPED for lack of something on this ` +
      `machine:`,
    ...list.flatMap((item, index) => [
      `  ${index + 1}. ${item.skipped}: no ${item.what} (${item.reason}).`,
      `     To run them: ${item.fix}`,
      `     ${item.requireVariable}=1 makes this an error instead of a skip (.ci/run sets it).`,
    ]),
    "",
  ];
  return lines.join("\n");
}

/** Throws when the variable that forbids this skip is set, so CI fails instead of skipping. */
export function refuseSkipWhenRequired(prerequisite: MissingPrerequisite): void {
  if (process.env[prerequisite.requireVariable] === "1") {
    throw new Error(
      `${prerequisite.requireVariable}=1 but ${prerequisite.skipped} cannot run: ${prerequisite.reason}. ${prerequisite.fix}`,
    );
  }
}

export function missingPrerequisites(): readonly MissingPrerequisite[] {
  return missing;
}

/**
 * Fails the run from a global teardown: vitest only logs what a teardown throws ("error during
 * close") and still exits 0, so the message is printed and the exit code set here.
 */
export function failRunAtTeardown(message: string): void {
  process.stderr.write(`\n${message}\n`);
  process.exitCode = 1;
}
