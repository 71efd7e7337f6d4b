import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import mysql from "mysql2/promise";

/** The MariaDB (or MySQL) server that hosts test source databases: root without a password. */
export const MARIADB = {
  host: process.env.TEST_MARIADB_HOST ?? "127.0.0.1",
  port: Number(process.env.TEST_MARIADB_PORT ?? 3306),
  user: process.env.TEST_MARIADB_USER ?? "root",
};

const connect = () => mysql.createConnection({ ...MARIADB, connectTimeout: 3000 });

/** Whether the MariaDB server answers within 3 s. */
export async function mariadbReachable(): Promise<boolean> {
  try {
    const connection = await connect();
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

/** Runs statements one after the other on a connection of their own, in `database` if given. */
export async function runMariadb(statements: readonly string[], database?: string): Promise<void> {
  const connection = await connect();
  try {
    if (database) await connection.query(`use \`${database}\``);
    for (const s of statements) await connection.query(s);
  } finally {
    await connection.end();
  }
}

/** Throwaway databases to document, named `<name>` and `<name>_<suffix>`, and a way to drop them. */
export interface MariadbSource {
  name: string;
  /** Runs statements in the database `<name>` (or `<name>_<suffix>`). */
  exec(statements: string[], suffix?: string): Promise<void>;
  drop(): Promise<void>;
}

export async function createMariadbSource(
  setup: string[],
  others: Record<string, string[]> = {},
): Promise<MariadbSource> {
  const name = `ledgerline_src_${process.pid}_${randomBytes(3).toString("hex")}`;
  const suffixes = Object.keys(others);
  await runMariadb(
    [name, ...suffixes.map((s) => `${name}_${s}`)].map((d) => `create database \`${d}\``),
  );
  for (const [suffix, statements] of Object.entries(others))
    await runMariadb(statements, `${name}_${suffix}`);
  await runMariadb(setup, name);
  return {
    name,
    exec: (statements, suffix) => runMariadb(statements, suffix ? `${name}_${suffix}` : name),
    drop: () =>
      runMariadb(
        [name, ...suffixes.map((s) => `${name}_${s}`)].map(
          (d) => `drop database if exists \`${d}\``,
        ),
      ),
  };
}

/** Writes a MariaDB connection file `file` of these lines (a `[client]` group) in the folder. */
export function writeMariadbConnection(dir: string, file: string, lines: string[]): Promise<void> {
  return fs.writeFile(path.join(dir, file), `# test connection\n[client]\n${lines.join("\n")}\n`);
}
