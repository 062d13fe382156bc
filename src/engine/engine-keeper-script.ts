/**
 * A keeper that outlives the round for as long as it takes to kill the round's engines, run as
 * `node -e ENGINE_KEEPER_SCRIPT`. Node has no prctl(PR_SET_PDEATHSIG), and a round killed with SIGKILL
 * (a cancelled or timed-out job) runs none of its own clean-up: its engines, each in a process group
 * of its own, would go on running. The keeper's stdin is a pipe from the round, and the round writes
 * on it each group it starts (`+<pgid>`) and stops (`-<pgid>`). The kernel closes the pipe when the
 * round's process ends, however it ends; the keeper then reads end-of-file and SIGKILLs every group
 * still listed (for an isolated engine the group's leader is `unshare --kill-child`, and the kernel
 * then ends its whole PID namespace), and exits.
 *
 * Plain JavaScript in a string, like the engines' init: it runs in a process of its own and must not
 * depend on where the bundle or the sources are.
 */
export const ENGINE_KEEPER_SCRIPT = String.raw`"use strict";
const groups = new Set();
let pending = "";
const killAll = () => {
  for (const group of groups) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  process.exit(0);
};
process.stdin.setEncoding("utf8");
process.stdin.on("data", (text) => {
  pending += text;
  for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    const group = Number(line.slice(1));
    if (!Number.isInteger(group) || group <= 1) continue;
    if (line[0] === "+") groups.add(group);
    else if (line[0] === "-") groups.delete(group);
  }
});
process.stdin.on("end", killAll);
process.stdin.on("error", killAll);
// A terminal's Ctrl-C or a hang-up is the round's to handle; the keeper waits for the pipe.
process.on("SIGINT", () => undefined);
process.on("SIGHUP", () => undefined);
`;
