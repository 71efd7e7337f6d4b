/**
 * Compiles the server for production: one ES module per entry point (the server and the upload
 * parser's worker thread) in packages/server/dist. Our own code and the contract package are
 * bundled; every other package is imported from node_modules at run time, as in development.
 */
import path from "node:path";
import { build, type Plugin } from "esbuild";

const server = path.resolve(import.meta.dirname, "../packages/server");

const packagesStayExternal: Plugin = {
  name: "packages-stay-external",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@ledgerline/") ? undefined : { path: args.path, external: true },
    );
  },
};

await build({
  absWorkingDir: server,
  entryPoints: ["src/main.ts", "src/ingest/xlsx-worker.ts", "src/db/pglite-worker.ts"],
  entryNames: "[name]",
  outdir: "dist",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  sourcemap: true,
  logLevel: "warning",
  plugins: [packagesStayExternal],
});
