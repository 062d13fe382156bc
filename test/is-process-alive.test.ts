import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { isProcessAlive } from "../src/is-process-alive.js";

const state = (pid: number): string => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat
    .slice(stat.lastIndexOf(")") + 1)
    .trim()
    .charAt(0);
};

it.skipIf(process.platform !== "linux")("counts a zombie (dead, not reaped yet) as dead, and a live process as alive", async () => {
  // The shell's background child exits at once; the shell then execs into a sleep that never reaps it: a zombie.
  const parent = spawn("sh", ["-c", "true & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const [chunk] = (await once(parent.stdout, "data")) as [Buffer];
    const zombie = Number(chunk.toString().trim());
    // It becomes a zombie when it exits, with no event to await from here: its state is read until it has (bounded).
    // Bounded by time, not by looks: beside CPU-bound work 2,000 immediate looks ended before `true` had run at all.
    const deadline = Date.now() + 60_000;
    while (state(zombie) !== "Z" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state(zombie)).toBe("Z");
    expect(isProcessAlive(zombie)).toBe(false);
    expect(isProcessAlive(parent.pid ?? 0)).toBe(true);
  } finally {
    const exited = once(parent, "exit");
    parent.kill("SIGKILL");
    await exited;
  }
});
