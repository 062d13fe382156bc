import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Engines and containers bind fixed loopback ports in some tests; files run in parallel
    // workers but tests inside a file stay sequential.
    pool: "forks",
  },
});
