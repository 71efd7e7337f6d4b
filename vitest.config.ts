import { defineConfig } from "vitest/config";

// TEST_DATABASE_URL (a PostgreSQL server URL) runs the API suite on PostgreSQL; unset, on PGlite.
export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "scripts/**/*.test.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default"],
  },
});
