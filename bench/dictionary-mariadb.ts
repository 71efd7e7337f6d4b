// The MariaDB source of `npm run bench -- dictionary`: 2,000 InnoDB tables of 20 columns in 10
// databases on the local MariaDB (BENCH_MARIADB_HOST, _PORT, _USER; default 127.0.0.1:3306 root),
// created for the run and dropped after it.
import fsp from "node:fs/promises";
import path from "node:path";
import mysql from "mysql2/promise";
import { timed } from "./support/workload.ts";

const SERVER = {
  host: process.env.BENCH_MARIADB_HOST ?? "127.0.0.1",
  port: Number(process.env.BENCH_MARIADB_PORT ?? 3306),
  user: process.env.BENCH_MARIADB_USER ?? "root",
};

const TYPES = ["text", "int", "decimal(12,2)", "date", "boolean"];
/** A value of each of TYPES for the row numbered `seq` (the Sequence engine's `seq_1_to_<n>`). */
const VALUES = [
  "concat('v', seq % 37)",
  "seq % 100",
  "(seq % 1000) * 1.5",
  "date '2020-01-01' + interval (seq % 365) day",
  "seq % 2 = 0",
];

/** A throwaway MariaDB source: its databases, and ways to change and drop it. */
export interface MariadbBenchSource {
  databases: string[];
  exec(statements: string[]): Promise<void>;
  drop(): Promise<void>;
}

async function run(statements: readonly string[]): Promise<void> {
  const connection = await mysql.createConnection({ ...SERVER, multipleStatements: true });
  try {
    // 50 statements a round trip: one per statement would take longer than the import measured.
    for (let i = 0; i < statements.length; i += 50)
      await connection.query(statements.slice(i, i + 50).join(";\n"));
  } finally {
    await connection.end();
  }
}

/** Whether the MariaDB server answers. */
export async function mariadbBenchReachable(): Promise<boolean> {
  try {
    await (await mysql.createConnection({ ...SERVER, connectTimeout: 3000 })).end();
    return true;
  } catch {
    return false;
  }
}

const databaseOf = (prefix: string, t: number) => `${prefix}_app${t % 10}`;

/**
 * 2,000 tables (as PostgreSQL's source): a primary key, comments on the table and every column,
 * every table but the first ten a foreign key to the one ten before, and `rows` rows of values.
 */
export async function createMariadbBenchSource(
  tables: number,
  perTable: number,
  rows: number,
): Promise<MariadbBenchSource> {
  const prefix = `ledgerline_bench_dd_${process.pid}`;
  const databases = Array.from({ length: 10 }, (_, i) => `${prefix}_app${i}`);
  console.log(
    `creating the MariaDB source: ${tables} tables x ${perTable} columns x ${rows} rows...`,
  );
  const statements = databases.map((d) => `create database \`${d}\``);
  for (let t = 1; t <= tables; t += 1) {
    const columns = ["id bigint primary key comment 'Column 1'"];
    const values = ["seq"];
    if (t > 10) {
      columns.push(`parent_id bigint comment 'parent_id of table ${t}'`);
      values.push("seq");
    }
    for (let c = columns.length + 1; c <= perTable; c += 1) {
      columns.push(`c${c} ${TYPES[c % 5]} comment 'Column ${c} of table ${t}'`);
      values.push(VALUES[c % 5]);
    }
    if (t > 10)
      columns.push(
        `foreign key (parent_id) references \`${databaseOf(prefix, t - 10)}\`.t${t - 10} (id)`,
      );
    const table = `\`${databaseOf(prefix, t)}\`.t${t}`;
    statements.push(
      `create table ${table} (${columns.join(", ")}) comment 'Table number ${t}'`,
      // The Sequence engine's tables are in every database, but need one named.
      `insert into ${table} select ${values.join(", ")} from \`${databaseOf(prefix, t)}\`.seq_1_to_${rows}`,
    );
  }
  const drop = () => run(databases.map((d) => `drop database if exists \`${d}\``));
  const created = await timed(() => run(statements)).catch(async (error: unknown) => {
    // What was created before the failure is dropped: the databases would stay on the server.
    await drop();
    throw error;
  });
  console.log(`MariaDB source created in ${created.seconds.toFixed(1)} s`);
  return { databases, exec: run, drop };
}

/** 5% of the tables change (a new column, a new comment) and 2% are dropped, none of them referred to. */
export function mariadbChanges(tables: number): string[] {
  const prefix = `ledgerline_bench_dd_${process.pid}`;
  const changes: string[] = [];
  for (let t = 20; t <= tables; t += 20) {
    const table = `\`${databaseOf(prefix, t)}\`.t${t}`;
    changes.push(`alter table ${table} add column extra_${t} text, comment 'Changed table ${t}'`);
  }
  // The last tables of the chain: no other table refers to them.
  for (let t = tables; t > tables - Math.round(tables * 0.02); t -= 1)
    changes.push(`drop table \`${databaseOf(prefix, t)}\`.t${t}`);
  return changes;
}

/** Writes the MariaDB connection file `file` of the source to `connectionsDir`. */
export function connectMariadbSource(
  source: MariadbBenchSource,
  connectionsDir: string,
  file: string,
): Promise<void> {
  return fsp.writeFile(
    path.join(connectionsDir, file),
    `# bench source\n[client]\nhost=${SERVER.host}\nport=${SERVER.port}\nuser=${SERVER.user}\ndatabases=${source.databases.join(",")}\n`,
  );
}
