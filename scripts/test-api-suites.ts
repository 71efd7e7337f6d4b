// `npm test`'s API part: the suite on PGlite and the suite on PostgreSQL at the same time. Each
// runs its files one at a time (Vitest's default on two cores), the PGlite one busy on a core of
// its own while the PostgreSQL one mostly waits on the server, so side by side they take little
// more than the longer of the two. The PGlite suite prints as it goes; the PostgreSQL suite's
// output follows once it ends.
import { spawn } from "node:child_process";

function run(args: string[], output: "inherit" | "pipe") {
  const child = spawn("npm", ["run", ...args], { stdio: ["ignore", output, output] });
  const chunks: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? 1)));
  return { done, output: () => Buffer.concat(chunks).toString() };
}

const onPostgres = run(["test:api:pg", "--silent"], "pipe");
const onPglite = run(["test:api", "--silent"], "inherit");
const pgliteStatus = await onPglite.done;
const postgresStatus = await onPostgres.done;
process.stdout.write(`\n--- API suite on PostgreSQL ---\n${onPostgres.output()}`);
console.log(
  `API suites: PGlite ${pgliteStatus === 0 ? "passed" : "FAILED"}, PostgreSQL ${postgresStatus === 0 ? "passed" : "FAILED"}`,
);
process.exit(pgliteStatus === 0 && postgresStatus === 0 ? 0 : 1);
