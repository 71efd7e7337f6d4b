// Runs the API suite against PostgreSQL (TEST_DATABASE_URL, default the local server). Each test
// file creates and drops its own throwaway database there. Without a reachable server the run is
// skipped with a message, except on CI (CI=true), where that is a failure.
import { spawnSync } from "node:child_process";
import { serverVersion } from "../packages/server/src/testing/postgres-server.ts";

const url = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const version = await serverVersion(url);
if (!version) {
  const message = `PostgreSQL is not reachable at ${new URL(url).host}: the API suite on PostgreSQL did not run.`;
  if (process.env.CI) {
    console.error(message);
    process.exit(1);
  }
  console.warn(`${message} Set TEST_DATABASE_URL to run it.`);
  process.exit(0);
}
console.log(`API suite on PostgreSQL ${version}`);
const result = spawnSync("npx", ["vitest", "run", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, TEST_DATABASE_URL: url },
});
process.exit(result.status ?? 1);
