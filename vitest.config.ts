import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Engines and containers bind fixed loopback ports in some tests; files run in parallel
    // workers but tests inside a file stay sequential.
    pool: "forks",
    // The Docker tests' engine image, once per run; the PostgreSQL server the store's and app's tests use
    // (SPEEDGATE_TEST_DATABASE_URL's, or a throwaway one this run starts); a bundle of the sources that
    // every engine and CLI process the tests start loads (src/engine/locate-speedgate.ts); then one temporary folder for the
    // whole run. What could not be had skips its tests with a notice. Teardowns run in reverse: the
    // temporary folder is checked first, and the summary of skipped groups comes last, after vitest's own.
    globalSetup: [
      "test/support/prerequisites/prerequisites-summary-setup.ts",
      "test/support/docker/docker-global-setup.ts",
      "test/support/database/database-global-setup.ts",
      "test/support/cli-bundle/cli-bundle-setup.ts",
      "test/support/temp/temp-root-setup.ts",
    ],
    // Each file's temporary folders in a folder of its own, checked empty when the file is done.
    setupFiles: ["test/support/temp/isolate-temp-dir.ts"],
  },
});
