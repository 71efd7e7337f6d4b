import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { QuickStart } from "../db/pglite-thread.ts";

/** The installed PGlite's version: a data folder is only for the PGlite that made it. */
async function pgliteVersion(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const root = entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`));
  const manifest = JSON.parse(await fs.readFile(path.join(root, "package.json"), "utf8"));
  return (manifest as { version: string }).version;
}

/**
 * How the tests' in-memory databases start: from the tarball of a fresh data folder instead of
 * initdb (about 1.5 s in a thread of its own against 4 s; the suite opens one for almost every
 * file). The tarball is made once per PGlite version in the system's temporary folder; processes
 * making it at once each rename an equal file into place.
 */
export async function pgliteQuickStart(): Promise<QuickStart> {
  const file = path.join(os.tmpdir(), `ledgerline-pglite-${await pgliteVersion()}-template.tar`);
  if (
    await fs.stat(file).then(
      () => true,
      () => false,
    )
  )
    return { template: file };
  const fresh = await PGlite.create("memory://", { extensions: { pg_trgm } });
  try {
    const dump = await fresh.dumpDataDir("none");
    const part = `${file}.${process.pid}-${randomBytes(4).toString("hex")}.part`;
    await fs.writeFile(part, new Uint8Array(await dump.arrayBuffer()));
    await fs.rename(part, file);
  } finally {
    await fresh.close();
  }
  return { template: file };
}
