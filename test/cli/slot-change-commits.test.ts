import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readScorecard } from "../../src/scorecard/read-scorecard.js";
import { makeGitRepository } from "../support/git/make-git-repository.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { engineProfile, writeCommitsRound } from "../support/write-commits-round.js";
import { runCli } from "./support/sim-round.js";

/*
 * #39: a pull request that adds slots (llama-server's -np 1 → 4) drains the queue the baseline builds: that is its
 * speedup. `run --base/--head` reads the pull request's own diff, and the card keeps what changed the slots, so a
 * queue-bound card says so instead of telling the author to lower the load to the baseline's slots
 * (test/scorecard/detect-queue-bound.test.ts has the words). A pull request that leaves the slots alone keeps none.
 */
describe("speedgate run --base/--head on a pull request that changes the engine's slots", () => {
  it("records on the card what in the diff changes the parallel slots, and nothing for a change that does not", async () => {
    const repo = await makeGitRepository();
    const serve = (slots: number) => `#!/bin/sh\nexec llama-server -m /models/m.gguf -np ${slots} --port "$PORT"\n`;
    const base = await repo.commit("the engine", { "engine/profile.json": engineProfile(5, 2), "engine/serve.sh": serve(1) });
    await repo.git("checkout", "--quiet", "-b", "slots");
    const slots = await repo.commit("four slots", { "engine/profile.json": engineProfile(5, 1), "engine/serve.sh": serve(4) });
    await repo.git("checkout", "--quiet", "-b", "kernel", base);
    const kernel = await repo.commit("a faster kernel", { "engine/profile.json": engineProfile(5, 1) });
    const configPath = await writeCommitsRound(await makeTempDir("speedgate-slots-config-"));

    const cardOf = async (head: string) => {
      const out = await makeTempDir("speedgate-slots-");
      const ran = await runCli(["run", "--config", configPath, "--out", out, "--base", base, "--head", head, "--repo", repo.dir]);
      expect(ran.code, ran.logger.lines.map((line) => line.message).join("\n")).toBe(0);
      return await readScorecard(join(out, "scorecard.json"));
    };
    expect((await cardOf(slots)).settings.slotsChanged).toBe("-np changed in engine/serve.sh");
    expect((await cardOf(kernel)).settings.slotsChanged).toBeUndefined();
  }, 240_000);
});
