import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { findCardFiles } from "../../src/shard/find-card-files.js";
import { makeTempDir } from "../support/make-temp-dir.js";

describe("findCardFiles", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await makeTempDir("speedgate-find-cards-");
    for (const index of [2, 1, 10]) {
      await mkdir(join(dir, "shards", `speedgate-shard-${index}`), { recursive: true });
      await writeFile(join(dir, "shards", `speedgate-shard-${index}`, "scorecard.json"), "{}");
      await writeFile(join(dir, "shards", `speedgate-shard-${index}`, "scorecard.md"), "");
    }
    await mkdir(join(dir, "empty"));
  });

  it("finds every scorecard.json under a folder, in a stable order", async () => {
    expect(await findCardFiles(["shards"], "cards", dir)).toEqual(
      [1, 10, 2].map((index) => join(dir, "shards", `speedgate-shard-${index}`, "scorecard.json")),
    );
  });

  it("takes globs and files, and names each file once", async () => {
    const files = await findCardFiles(
      ["shards/*-1*/scorecard.json", join(dir, "shards", "speedgate-shard-1", "scorecard.json")],
      "cards",
      dir,
    );
    expect(files).toEqual([1, 10].map((index) => join(dir, "shards", `speedgate-shard-${index}`, "scorecard.json")));
  });

  it.each([
    [["empty"], 'input "cards": expected shard cards (scorecard.json) in empty, found none'],
    [["shards/*/card.json"], 'input "cards": expected shard cards (scorecard.json) in shards/*/card.json, found none'],
    [["nowhere"], 'input "cards": expected a file, folder or glob of shard cards, but nowhere does not exist'],
  ])("refuses %j", async (specs, message) => {
    const failure = findCardFiles(specs, 'input "cards"', dir);
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow(message);
  });
});
