import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { createRecordingLogger, silentLogger } from "../../../src/logger.js";
import { recordCard } from "../../../src/store/card-history.js";
import { migrateDatabase } from "../../../src/store/migrate-database.js";
import { captureStream } from "../../support/capture-stream.js";
import { type TestDatabaseHandle, describeEachBackend } from "../../support/database/database-backends.js";
import { makeCardRecord } from "../../support/database/make-card-record.js";

async function history(args: string[], env: NodeJS.ProcessEnv = {}) {
  const stdout = captureStream();
  const logger = createRecordingLogger();
  const code = await main(["history", ...args], { stdout, logger, env });
  return { code, out: stdout.text(), lines: logger.lines };
}

function databaseArgument(handle: TestDatabaseHandle): string {
  return handle.target.kind === "postgres" ? handle.target.url : handle.target.dataDir;
}

describeEachBackend("speedgate history", (backend) => {
  let handle: TestDatabaseHandle;

  beforeAll(async () => {
    handle = await backend.create();
    const database = await handle.open();
    try {
      await migrateDatabase(database.pool, { logger: silentLogger });
      await recordCard(database.pool, makeCardRecord({ pullRequest: 3, headSha: "1".repeat(40), runId: 101, roundScore: 1.05 }));
      await recordCard(
        database.pool,
        makeCardRecord({ pullRequest: 3, headSha: "2".repeat(40), runId: 102, roundScore: 1.12, runner: '=HYPERLINK("x")' }),
      );
      await recordCard(
        database.pool,
        makeCardRecord({
          pullRequest: 4,
          headSha: "3".repeat(40),
          runId: 103,
          roundScore: null,
          failure: { kind: "cuda_oom", engine: "candidate", stage: "startup" },
        }),
      );
      await recordCard(database.pool, makeCardRecord({ repository: "someone/else", runId: 104 }));
      await recordCard(
        database.pool,
        makeCardRecord({ pullRequest: 5, headSha: "5".repeat(40), runId: 105, roundScore: 1.1, scenarios: { total: 3, passed: 2 } }),
      );
    } finally {
      // PGlite serves one process: the command opens the folder itself.
      await database.close();
    }
  });
  afterAll(async () => {
    await handle.destroy();
  });

  it("prints a repository's cards as a table, oldest first", async () => {
    const { code, out } = await history(["--database", databaseArgument(handle), "--repo", "Octo/Engine"]);
    expect(code).toBe(0);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^recorded \(UTC\)\s+PR\s+commit\s+run\s+score\s+interval\s+gate\s+scenarios\s+failure\s+runner\s+GPU$/);
    expect(lines).toHaveLength(6);
    expect(lines[2]).toMatch(/#3 {2}111111111111 {2}101 {2}1\.05× {2}1\.03×–1\.08× {2}passed/);
    expect(lines[4]).toMatch(/#4 {2}333333333333 {2}103 +— {2}— +failed {2}\s+cuda_oom/);
    // A round with scenarios: the headline scenario's score, and how many scenarios passed.
    expect(lines[5]).toMatch(/#5 {2}555555555555 {2}105 {2}1\.10× {2}1\.08×–1\.13× {2}passed {2}3 \(2 passed\) {2}/);
  });

  it("prints CSV with one pull request, and keeps a formula out of spreadsheets", async () => {
    const { code, out } = await history(["--database", databaseArgument(handle), "--repo", "octo/engine", "--pr", "3", "--format", "csv"]);
    expect(code).toBe(0);
    const rows = out.split("\r\n");
    expect(rows[0]?.split(",")).toEqual(
      [
        ["recorded_at", "pull_request", "head_sha", "run_id", "run_attempt", "round_score", "interval_low", "interval_high", "gate"],
        ["min_round_score", "scenarios_total", "scenarios_passed", "failure_kind", "image_digest", "patch_hash", "runner", "gpu"],
      ].flat(),
    );
    expect(rows).toHaveLength(4);
    expect(rows[1]).toContain(`,3,${"1".repeat(40)},101,1,1.05,`);
    expect(rows[1]).toContain(",passed,1.05,,,");
    const scenarios = await history(["--database", databaseArgument(handle), "--repo", "octo/engine", "--pr", "5", "--format", "csv"]);
    expect(scenarios.out.split("\r\n")[1]).toContain(",passed,1.05,3,2,");
    expect(rows[2]).toContain(`,"'=HYPERLINK(""x"")",`);
  });

  it("takes the database from DATABASE_URL when --database is not given", async () => {
    const { code, out } = await history(["--repo", "someone/else", "--format", "csv"], { DATABASE_URL: databaseArgument(handle) });
    expect(code).toBe(0);
    expect(out.split("\r\n")).toHaveLength(3);
  });
});

describe("speedgate history refuses what it cannot read", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "speedgate-history-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("names a missing or malformed option", async () => {
    expect((await history(["--repo", "o/r"])).lines).toContainEqual({
      level: "error",
      message: "speedgate history: --database is required (a postgres:// URL or the app's PGlite folder), or set DATABASE_URL",
    });
    const badRepo = await history(["--database", dir, "--repo", "just-a-name"]);
    expect(badRepo.code).toBe(2);
    expect(badRepo.lines).toContainEqual({ level: "error", message: 'speedgate history: --repo: expected owner/repo, got "just-a-name"' });
    const badFormat = await history(["--database", dir, "--repo", "o/r", "--format", "json"]);
    expect(badFormat.lines).toContainEqual({ level: "error", message: 'speedgate history: --format: expected table or csv, got "json"' });
    const badPr = await history(["--database", dir, "--repo", "o/r", "--pr", "0"]);
    expect(badPr.lines).toContainEqual({ level: "error", message: 'speedgate history: --pr: expected a positive whole number, got "0"' });
    const badScheme = await history(["--database", "mysql://db/x", "--repo", "o/r"]);
    expect(badScheme.lines[0]?.message).toMatch(/^speedgate history: --database: unsupported database URL scheme in mysql:\/\/db\/x/);
  });

  it("does not make a new database out of a folder that holds none", async () => {
    const { code, lines } = await history(["--database", join(dir, "nothing-here"), "--repo", "o/r"]);
    expect(code).toBe(2);
    expect(lines[0]?.message).toMatch(/no speedgate database in .*nothing-here: the folder holds no PGlite data/);
  });

  it("does not print a server's password when it cannot connect", async () => {
    const { code, lines } = await history(["--database", "postgres://reader:s3cret@127.0.0.1:1/speedgate", "--repo", "o/r"]);
    expect(code).toBe(2);
    expect(lines[0]?.message).toMatch(
      /^speedgate history: --database: the database postgres:\/\/reader:\*\*\*@127\.0\.0\.1:1\/speedgate does not answer/,
    );
    expect(JSON.stringify(lines)).not.toContain("s3cret");
  });
});
