import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Engines and containers bind fixed loopback ports in some tests; files run in parallel
    // workers but tests inside a file stay sequential.
    pool: "forks",
    // The Docker tests' engine image, once per run (skipped with a notice, repeated after the summary,
    // when no daemon answers or busybox is missing); the PostgreSQL server the store's tests use (skipped
    // with a notice when none answers); then one temporary folder for the whole run.
    // Teardowns run in reverse: the temporary folder is checked first, the Docker notice comes last.
    // llama.cpp's real server (skipped with a notice, repeated after the summary, when it is not here), with its image when Docker is.
    globalSetup: [
      "test/support/docker/docker-global-setup.ts",
      "test/support/llama-cpp/llama-cpp-global-setup.ts",
      "test/support/database/database-global-setup.ts",
      "test/support/temp/temp-root-setup.ts",
    ],
    // Each file's temporary folders in a folder of its own, checked empty when the file is done.
    setupFiles: ["test/support/temp/isolate-temp-dir.ts"],
  },
});
