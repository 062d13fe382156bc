import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Engines and containers bind fixed loopback ports in some tests; files run in parallel
    // workers but tests inside a file stay sequential.
    pool: "forks",
    // Builds the Docker tests' engine image once per run (skipped with a notice when no daemon answers), and
    // checks the PostgreSQL server the store's tests use (skipped with a notice when none answers).
    globalSetup: ["test/support/docker/docker-global-setup.ts", "test/support/database/database-global-setup.ts"],
  },
});
