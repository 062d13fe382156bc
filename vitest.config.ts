import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/*
 * Most of the suite waits, for engines, containers, the app's queue and GitHub's fake, rather than
 * computes: one file at a time (vitest's default of one worker on 2 cores) left the CPUs idle most of
 * a 38-minute run. Four or more files at once, each with its own ports, folders, databases and Docker
 * labels; the tests hold under that load (and under two CPU-bound processes beside the run).
 */
const WORKERS = Math.min(8, Math.max(4, 2 * availableParallelism()));

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Generous: a limit is there to end a hang, not to measure speed (npm run bench does that).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Files run in parallel workers; tests inside a file stay sequential.
    pool: "forks",
    maxWorkers: WORKERS,
    // The Docker tests' engine image, once per run; llama.cpp's real server (with its image when Docker
    // answers); the PostgreSQL server the store's and app's tests use (SPEEDGATE_TEST_DATABASE_URL's, or a
    // throwaway one this run starts); a bundle of the sources that every engine and CLI process the tests
    // start loads (src/engine/locate-speedgate.ts); then one temporary folder for the whole run. What could
    // not be had skips its tests with a notice. Teardowns run in reverse: the temporary folder is checked
    // first, and the summary of skipped groups comes last, after vitest's own.
    globalSetup: [
      "test/support/prerequisites/prerequisites-summary-setup.ts",
      "test/support/docker/docker-global-setup.ts",
      "test/support/llama-cpp/llama-cpp-global-setup.ts",
      "test/support/database/database-global-setup.ts",
      "test/support/cli-bundle/cli-bundle-setup.ts",
      "test/support/temp/temp-root-setup.ts",
    ],
    // Each file's temporary folders in a folder of its own, checked empty when the file is done.
    setupFiles: ["test/support/temp/isolate-temp-dir.ts"],
  },
});
