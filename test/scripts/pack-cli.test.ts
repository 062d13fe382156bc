import { readFileSync } from "node:fs";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { readScorecard } from "../../src/scorecard/read-scorecard.js";
import { recordCard } from "../../src/store/card-history.js";
import { migrateDatabase } from "../../src/store/migrate-database.js";
import { openDatabase } from "../../src/store/open-database.js";
import { makeCardRecord } from "../support/database/make-card-record.js";

/*
 * The one-command CLI outside the clone: `npm run pack:cli` makes speedgate-<version>.tgz, which
 * installs with npm from nothing but itself (offline, into an empty cache) and runs the demo and
 * `run --check` with no node_modules anywhere near it, and reads the app's embedded database with
 * `speedgate history` (PGlite travels in the tarball: its WASM cannot be bundled).
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { version: string };

describe("the packed CLI", () => {
  let dir = "";
  let tarball = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "speedgate-pack-test-"));
    tarball = (await run(process.execPath, [join(root, "scripts", "pack-cli.mjs"), "--out", dir])).stdout.trim();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("holds the bundle, the examples and PGlite, not the sources, and declares only the dependencies it carries", async () => {
    expect(tarball).toBe(join(dir, `speedgate-${manifest.version}.tgz`));
    const files = (await run("tar", ["-tzf", tarball])).stdout.split("\n").filter(Boolean);
    expect(files).toEqual(
      expect.arrayContaining([
        "package/package.json",
        "package/dist/cli.js",
        "package/examples/demo/round.yml",
        "package/examples/demo/engine/profile.json",
        "package/examples/demo/faster.patch",
        "package/examples/rounds/sglang.yaml",
        "package/examples/rounds/vllm.yaml",
        "package/examples/engine-repository/.github/speedgate/round.yaml",
      ]),
    );
    expect(files.some((file) => file.startsWith("package/dist/chunks/"))).toBe(true);
    expect(
      files.filter(
        (file) =>
          /^package\/(src|test|bot)\//.test(file) ||
          (file.includes("/node_modules/") &&
            !file.startsWith("package/node_modules/@electric-sql/pglite") &&
            !file.startsWith("package/node_modules/uplot/")),
      ),
    ).toEqual([]);
    const packed = JSON.parse((await run("tar", ["-xzOf", tarball, "package/package.json"])).stdout) as Record<string, unknown>;
    expect(packed).toMatchObject({ name: "speedgate", version: manifest.version, bin: { speedgate: "dist/cli.js" } });
    // Only what the bundle cannot hold, and it travels inside the tarball: installing downloads nothing.
    expect(packed).toMatchObject({ bundleDependencies: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "uplot"] });
    expect(Object.keys(packed.dependencies as Record<string, string>)).toEqual(packed.bundleDependencies);
    expect(files).toEqual(
      expect.arrayContaining([
        "package/node_modules/@electric-sql/pglite/package.json",
        "package/node_modules/@electric-sql/pglite-socket/package.json",
        "package/node_modules/uplot/dist/uPlot.iife.min.js",
      ]),
    );
  });

  it("installs offline into an empty npm cache and runs the demo and run --check from anywhere", async () => {
    const prefix = join(dir, "prefix");
    const npmEnv = { ...process.env, npm_config_cache: join(dir, "npm-cache"), npm_config_update_notifier: "false" };
    await run("npm", ["install", "--global", "--offline", "--prefix", prefix, "--no-audit", "--no-fund", tarball], { env: npmEnv });
    const speedgate = join(prefix, "bin", "speedgate");
    const elsewhere = { cwd: dir, env: { ...process.env, NODE_PATH: "" } };
    expect((await run(speedgate, ["--version"], elsewhere)).stdout.trim()).toBe(manifest.version);

    const out = join(dir, "card");
    await run(speedgate, ["demo", "--out", out], elsewhere);
    const card = await readScorecard(join(out, "scorecard.json"));
    expect(card.roundScore).not.toBeNull();
    expect(card.belowTolerance).toBe(2);

    const installed = join(prefix, "lib", "node_modules", "speedgate");
    const check = await run(speedgate, ["run", "--config", join(installed, "examples", "rounds", "sglang.yaml"), "--check"], elsewhere);
    expect(check.stdout).toContain("is valid; nothing was started.");

    // The app's default database, a PGlite folder, as the app leaves it once stopped.
    const data = join(dir, "app-database");
    const database = await openDatabase({ kind: "pglite", dataDir: data }, { logger: silentLogger, maxConnections: 1 });
    try {
      await migrateDatabase(database.pool, { logger: silentLogger });
      await recordCard(database.pool, makeCardRecord({ pullRequest: 7, headSha: "7".repeat(40), roundScore: 1.12 }));
    } finally {
      await database.close();
    }
    const history = await run(speedgate, ["history", "--database", data, "--repo", "octo/engine"], elsewhere);
    expect(history.stdout).toMatch(/#7 {2}777777777777 .* 1\.12×/);
    // The history pages as files (#42): uPlot comes from the tarball, beside the pages.
    const site = join(dir, "site");
    await run(speedgate, ["history", "--database", data, "--repo", "octo/engine", "--html", site], elsewhere);
    expect(readFileSync(join(site, "static", "uplot.iife.min.js"), "utf8")).toContain("uPlot");
    expect(readFileSync(join(site, "repos", "octo", "engine", "index.html"), "utf8")).toContain("#7");
  });
});
