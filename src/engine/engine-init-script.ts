/**
 * The first process of an engine's PID namespace, run as `node -e ENGINE_INIT_SCRIPT -- <engine argv>`.
 *
 * The engine cannot be that process itself: the kernel drops signals to a namespace's first process
 * unless it handles them, so an engine that leaves SIGTERM at its default would ignore its stop. This
 * init starts the engine as its child and installs no handler of its own, so the group's SIGTERM
 * reaches the engine (and its workers) and not the init. When the engine exits, the init exits with
 * its status (128 + the signal's number when it was killed, as a shell or Docker says it), and the
 * kernel kills everything else in the namespace, workers that left the process group (setsid) and
 * daemons included, before the namespace's parent learns of the exit. A program that cannot be
 * started is said on stderr, with exit code 127 as a shell would.
 *
 * Plain JavaScript in a string: it runs before anything of speedgate is loaded, in a process of its
 * own, and it must not depend on where the bundle or the sources are.
 */
export const ENGINE_INIT_SCRIPT = String.raw`"use strict";
const { spawn } = require("node:child_process");
const { constants } = require("node:os");
const [program, ...args] = process.argv.slice(1);
const child = spawn(program, args, { stdio: "inherit" });
child.on("error", (error) => {
  process.stderr.write("speedgate: could not start " + JSON.stringify(program) + ": " + (error.code || error.message) + "\n");
  process.exit(127);
});
child.on("exit", (code, signal) => {
  process.exit(code !== null ? code : 128 + (constants.signals[signal] || 0));
});
`;
