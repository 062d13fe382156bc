import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/*
 * Two projects. `unit` holds the tests of the pure floors of src/ (the scoring rule, the card and its
 * renderers, the round config, text safety, diffs, metrics, failure classification, shards, tokens, and
 * the pure parts of the client and the GitHub code): no global setup, nothing started, so
 * `npm run test:unit` (and its watch mode, `npm run test:watch`) answers in well under a minute while
 * the code is being edited. `integration` holds the rest, the tests that start engines, containers, the
 * app, databases and llama.cpp, with the global setups they need. `npm test` runs both.
 *
 * A test file belongs to `unit` when it is listed here; everything else is `integration`. Put a new test
 * here only if it starts nothing: no process, server, container or database.
 */
const UNIT = [
  "test/scoring/**/*.test.ts",
  "test/scorecard/**/*.test.ts",
  "test/config/**/*.test.ts",
  "test/prompts/**/*.test.ts",
  "test/vocabulary/**/*.test.ts",
  "test/safe-text/**/*.test.ts",
  "test/patch/**/*.test.ts",
  "test/metrics/**/*.test.ts",
  "test/failure/**/*.test.ts",
  "test/calibration/**/*.test.ts",
  "test/shard/**/*.test.ts",
  "test/history/**/*.test.ts",
  "test/watch/**/*.test.ts",
  "test/tokens/**/*.test.ts",
  "test/github/parse-rescore-command.test.ts",
  "test/github/regate-scorecard.test.ts",
  "test/github/read-round-config-bars.test.ts",
  "test/github/decide-scenario-bar.test.ts",
  "test/github/repo-config-schema.test.ts",
  "test/github/fetch-pull-request-patch.test.ts",
  "test/github/list-main-range.test.ts",
  "test/client/build-request-body.test.ts",
  "test/client/build-warmup-prompts.test.ts",
  "test/client/defer-arrivals.test.ts",
  "test/client/finalize-records.test.ts",
  "test/client/keep-event-loop-awake.test.ts",
  "test/client/keep-written-notes.test.ts",
  "test/client/llama-cpp-stream.test.ts",
  "test/client/spread-token-counts.test.ts",
  "test/client/sse-parser.test.ts",
  "test/scripts/import-layers.test.ts",
];

/*
 * Most of the integration suite waits, for engines, containers, the app's queue and GitHub's fake,
 * rather than computes: one file at a time (vitest's default of one worker on 2 cores) left the CPUs
 * idle most of a 38-minute run. Four or more files at once, each with its own ports, folders, databases
 * and Docker labels; the tests hold under that load (and under two CPU-bound processes beside the run).
 */
const WORKERS = Math.min(8, Math.max(4, 2 * availableParallelism()));

export default defineConfig({
  test: {
    // Generous: a limit is there to end a hang, not to measure speed (npm run bench does that).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Files run in parallel workers; tests inside a file stay sequential.
    pool: "forks",
    maxWorkers: WORKERS,
    // Each file's temporary folders in a folder of its own, checked empty when the file is done.
    setupFiles: ["test/support/temp/isolate-temp-dir.ts"],
    projects: [
      {
        extends: true,
        test: { name: "unit", include: UNIT },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          exclude: UNIT,
          // The Docker tests' engine image, once per run; llama.cpp's real server (with its image when
          // Docker answers); the PostgreSQL server the store's and app's tests use
          // (SPEEDGATE_TEST_DATABASE_URL's, or a throwaway one this run starts); a bundle of the sources
          // that every engine and CLI process the tests start loads (src/engine/locate-speedgate.ts); then
          // one temporary folder for the whole run. What could not be had skips its tests with a notice.
          // Teardowns run in reverse: the temporary folder is checked first, and the summary of skipped
          // groups comes last, after vitest's own. Vitest runs them only when an integration test is queued.
          globalSetup: [
            "test/support/prerequisites/prerequisites-summary-setup.ts",
            "test/support/docker/docker-global-setup.ts",
            "test/support/llama-cpp/llama-cpp-global-setup.ts",
            "test/support/database/database-global-setup.ts",
            "harness/cli-bundle/cli-bundle-setup.ts",
            "test/support/temp/temp-root-setup.ts",
          ],
        },
      },
    ],
  },
});
