import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runSimRound, simCommand, writeCliRound } from "../cli/support/sim-round.js";
import { BUSY_H100, type FakeNvidiaSmi, IDLE_H100, LEFTOVER_ENGINE, installFakeNvidiaSmi, withPath } from "../support/fake-nvidia-smi.js";

const OOM_LOG = new URL("../../harness/fixtures/sglang-cuda-graph-oom.log", import.meta.url).pathname;

/*
 * A whole `speedgate run` with the process runtime and an nvidia-smi stand-in on PATH whose answers
 * change between the baseline's start and the candidate's, as a runner's GPU does when another job
 * or a leftover engine takes memory in between.
 */
describe("a round records the GPU state before each engine starts", () => {
  let fake: FakeNvidiaSmi | null = null;
  let restore: () => void = () => undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    restore();
    await fake?.remove();
    fake = null;
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it(
    "blames the runner, not the patch, for a CUDA OOM when memory was held " + "before the candidate started and not before the baseline",
    async () => {
      fake = await installFakeNvidiaSmi([{ gpus: IDLE_H100 }, { gpus: BUSY_H100, apps: LEFTOVER_ENGINE }]);
      restore = withPath(fake.path);
      const { dir, configPath } = await writeCliRound({
        candidate: { command: simCommand("--crash-log", OOM_LOG, "--crash-exit-code", "1") },
      });
      dirs.push(dir);
      const { card, out, stdout } = await runSimRound(configPath, dir);
      expect(card?.failure).toMatchObject({ engine: "candidate", stage: "startup", kind: "cuda_oom" });
      // No verdict on the patch, on the card and in the terminal alike.
      const headline =
        "⚠️ No verdict: the runner's GPU was busy, not the patch (GPU 0 was held by python3 -m sglang.launch_server, tp0, pid 4242, " +
        "22.5 GiB, when the candidate started)";
      expect(stdout.split("\n")[0]).toBe(headline);
      expect(card?.gpuState?.sameLaunch).toBe(false);
      expect(card?.gpuState?.baseline).toMatchObject({ error: null, gpus: [{ memoryUsedMiB: 4 }], processes: [] });
      expect(card?.gpuState?.candidate).toMatchObject({
        error: null,
        gpus: [{ memoryUsedMiB: 23046 }],
        processes: [{ pid: 4242, usedMemoryMiB: 23040 }],
      });
      expect(card?.provenance.gpu).toBe("NVIDIA H100 80GB HBM3, 81559 MiB");
      const markdown = await readFile(join(out, "scorecard.md"), "utf8");
      // On the card the process's module is a code span: engine text that a renderer could read as a domain never links.
      expect(markdown).toContain(`\n## ${headline.replace("sglang.launch_server", "`sglang.launch_server`")}\n`);
      expect(markdown).toContain(
        "**For the runner's maintainers:** before the candidate started, 22.5 of 79.6 GiB were in use on GPU 0, against 0.0 GiB on GPU 0 " +
          "before the baseline started: another job or a leftover engine held the memory the candidate needed",
      );
      expect(markdown).toContain(
        "stop what holds it (python3 -m `sglang.launch_server`, tp0, pid 4242, 22.5 GiB), then comment `/rescore`. Nothing to change in " +
          "the patch.",
      );
      expect(markdown).toContain(
        "| Processes holding GPU memory | none listed | python3 -m `sglang.launch_server`, tp0, pid 4242, 22.5 GiB |",
      );
    },
  );

  it("says the patch needs more memory when the GPU was as idle before the candidate as before the baseline", async () => {
    fake = await installFakeNvidiaSmi([{ gpus: IDLE_H100 }]);
    restore = withPath(fake.path);
    const { dir, configPath } = await writeCliRound({
      candidate: { command: simCommand("--crash-log", OOM_LOG, "--crash-exit-code", "1") },
    });
    dirs.push(dir);
    const { out } = await runSimRound(configPath, dir);
    const markdown = await readFile(join(out, "scorecard.md"), "utf8");
    // The stand-in's two answers were identical; only the different crash flags set this candidate apart.
    expect(markdown).toContain("the candidate was started with a different command or environment than the baseline");
    expect(markdown).toContain("Before the candidate started, 0.0 of 79.6 GiB were in use on GPU 0.");
    expect(markdown).not.toContain("runner's fault");
  });
});
