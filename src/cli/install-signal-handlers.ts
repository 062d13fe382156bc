/**
 * The runner cancels a job with SIGINT, then SIGTERM 7.5 s later, then SIGKILL. The first signal
 * aborts the running command so it can stop its engines, and a SIGTERM after it lets that cleanup
 * finish (it has its own deadlines). A second SIGINT is a person pressing Ctrl-C again: exit now.
 */
export function installSignalHandlers(): AbortSignal {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!controller.signal.aborted) {
      process.stderr.write(`speedgate: received ${signal}, stopping engines…\n`);
      controller.abort(new Error(`received ${signal}`));
      return;
    }
    if (signal === "SIGINT") {
      process.stderr.write("speedgate: received SIGINT again, exiting now\n");
      process.exit(130);
    }
    process.stderr.write(`speedgate: received ${signal}, still stopping engines…\n`);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return controller.signal;
}
