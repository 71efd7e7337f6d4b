// `npm run bench -- dictionary`: Data Dictionary import of a source database of 2,000 tables and
// 40,000 columns, then the re-import after 5% of the tables changed; then the same from MariaDB
// (dictionary-mariadb.ts), 2% of its tables also dropped.
import fsp from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { runStatements } from "../packages/server/src/testing/postgres-server.ts";
import {
  connectMariadbSource,
  createMariadbBenchSource,
  mariadbBenchReachable,
  mariadbChanges,
} from "./dictionary-mariadb.ts";
import { login } from "./support/app.ts";
import {
  benchServerUrl,
  type ThrowawayDatabase,
  withThrowawayDatabase,
} from "./support/database.ts";
import { envNumber, envSize } from "./support/env.ts";
import { loadNote, round, table, writeResult } from "./support/results.ts";
import {
  type AppSetup,
  announceBench,
  check,
  createSecondUser,
  postJson,
  SECOND_PASSWORD,
  SECOND_USER,
  timed,
  withBenchApp,
  withTempDir,
} from "./support/workload.ts";

const DD = "Data Dictionary";
const MODEL_DIR = path.resolve(import.meta.dirname, "../model");

/** 2,000 tables of 20 columns in 10 schemas; each table has a primary key, comments, and every
 * table but the first of a schema a foreign key to the one before; and `rows` rows of values. */
function sourceSql(from: number, to: number, columns: number, rows: number): string {
  return `do $$
declare t int; c int; s text; cols text; vals text;
begin
  for t in ${from}..${to} loop
    s := 'app' || (t % 10);
    execute format('create schema if not exists %I', s);
    cols := 'id bigint primary key';
    vals := 'g';
    if t > 10 then
      cols := cols || format(', parent_id bigint references %I.t%s (id)', 'app' || ((t - 10) % 10), t - 10);
      vals := vals || ', g';
    end if;
    for c in (case when t > 10 then 3 else 2 end)..${columns} loop
      cols := cols || format(', c%s %s', c, (array['text','integer','numeric(12,2)','date','boolean'])[1 + c % 5]);
      vals := vals || ', ' || (array['''v'' || (g % 37)', 'g % 100', '(g % 1000) * 1.5',
        'date ''2020-01-01'' + (g % 365)', 'g % 2 = 0'])[1 + c % 5];
    end loop;
    execute format('create table %I.t%s (%s)', s, t, cols);
    execute format('insert into %I.t%s select %s from generate_series(1, ${rows}) g', s, t, vals);
    execute format('comment on table %I.t%s is %L', s, t, 'Table number ' || t);
    for c in 2..${columns} loop
      execute format('comment on column %I.t%s.%I is %L', s, t,
        case when c = 2 and t > 10 then 'parent_id' else 'c' || c end, 'Column ' || c || ' of table ' || t);
    end loop;
  end loop;
end $$`;
}

interface DictionaryRun {
  tables: number;
  importFirst: number;
  importAgain: number;
  /** The import once more, nothing changed, with 'Profile columns' on. */
  importProfiled: number;
  relations: number;
  columns: number;
  messages: string[];
}

async function count(raw: (t: string, p: readonly unknown[]) => Promise<unknown[]>, type: string) {
  const rows = (await raw(
    `select count(distinct entity_key_id)::int as n from app.events
     where context = $1 and entity_type = $2`,
    [DD, type],
  )) as { n: number }[];
  return rows[0].n;
}

/** Fills the database at `url` with the source's tables. */
async function fillSource(
  url: string,
  tables: number,
  perTable: number,
  rows: number,
): Promise<void> {
  console.log(
    `creating the source database: ${tables} tables x ${perTable} columns x ${rows} rows...`,
  );
  const created = await timed(() =>
    runStatements(url, [
      // 100 tables per statement: one statement for all would exhaust the lock table.
      ...Array.from({ length: Math.ceil(tables / 100) }, (_, b) =>
        sourceSql(b * 100 + 1, Math.min(tables, b * 100 + 100), perTable, rows),
      ),
      // As autovacuum would have by then: the profiles read what ANALYZE keeps.
      "analyze",
    ]),
  );
  console.log(`source created in ${created.seconds.toFixed(1)} s`);
}

/**
 * BENCH_DD_SOURCE_TEMPLATE: a database the source is copied from (a file copy, seconds) instead of
 * being created table by table (minutes at 20,000 tables); created and filled first when missing,
 * and kept. Its name says its size, so a template of another size is never taken for it.
 */
async function sourceTemplate(
  tables: number,
  perTable: number,
  rows: number,
): Promise<string | undefined> {
  const prefix = process.env.BENCH_DD_SOURCE_TEMPLATE;
  if (!prefix) return undefined;
  const name = `${prefix}_${tables}x${perTable}x${rows}`;
  const server = benchServerUrl();
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    const found = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount) return name;
    await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  await fillSource(url.toString(), tables, perTable, rows);
  return name;
}

/** Writes the source's connection file and .pgpass to `connectionsDir`. */
async function connectSource(source: ThrowawayDatabase, connectionsDir: string): Promise<void> {
  const src = new URL(source.url);
  await fsp.writeFile(
    path.join(connectionsDir, "bench.conf"),
    `# bench source\n[source]\nhost=${src.hostname}\nport=${src.port || 5432}\ndbname=${source.name}\nuser=${decodeURIComponent(src.username) || "postgres"}\n`,
  );
  await fsp.writeFile(
    path.join(connectionsDir, ".pgpass"),
    `${src.hostname}:${src.port || 5432}:*:${decodeURIComponent(src.username) || "postgres"}:${decodeURIComponent(src.password) || "unused"}\n`,
    { mode: 0o600 },
  );
}

/** A source as the import measures it: its technology, and how it changes between the imports. */
interface BenchSource {
  technology: "postgres" | "mariadb";
  tables: number;
  change(): Promise<void>;
}

/** Imports the source, approves what it proposed, changes it and imports again. */
async function measureImports(
  { app, bench }: AppSetup,
  { technology, tables, change }: BenchSource,
): Promise<DictionaryRun> {
  const run: DictionaryRun = {
    tables,
    importFirst: 0,
    importAgain: 0,
    importProfiled: 0,
    relations: 0,
    columns: 0,
    messages: [],
  };
  const admin = await login(app.url);
  const keyOf = async (entityType: string, value: string) => {
    const list = await postJson<{ data: { entityKeyID: number }[] }>(
      `${app.url}/api/entity`,
      {
        context: DD,
        entityType,
        rowConstraints: [{ attribute: "name", operator: "=", values: [value] }],
      },
      admin,
    );
    if (!list.data[0]) throw new Error(`no ${entityType} named '${value}'`);
    return list.data[0].entityKeyID;
  };
  const save = (entityType: string, record: object) =>
    postJson<{ entityKeyID: number }>(
      `${app.url}/api/save`,
      { context: DD, entityType, record, action: "create" },
      admin,
    );
  const env = await save("systemenvironment", {
    name: "Bench DB",
    description: "The bench source database",
    technology,
    connectionfile: "bench.conf",
    edition: await keyOf("edition", "import"),
    uisequence: 1,
  });
  const meta = await save("metadatasource", {
    application: await keyOf("application", "Demo"),
    applicationaspect: await keyOf("applicationaspect", "Operational"),
    systemenvironment: env.entityKeyID,
    name: "Bench",
    description: "Bench tables",
    importfrequency: "0 3 * * *",
    enableschedule: false,
  });
  await createSecondUser(bench.database, [{ context: DD, role: "dictionary_editor" }]);
  const approver = await login(app.url, SECOND_USER, SECOND_PASSWORD);
  const approveAll = async () => {
    const approved = await timed(async () => {
      for (const type of ["dataobject", "dataelement", "lineage"]) {
        const ids = (
          (await bench.raw(
            `select event_id::int as id from app.events
             where context = $1 and entity_type = $2 and status = 'pending' order by event_id`,
            [DD, type],
          )) as { id: number }[]
        ).map((r) => r.id);
        // In calls of 100,000 ids: a larger list would pass the 1 MB limit of a JSON body.
        for (let i = 0; i < ids.length; i += 100_000)
          await postJson(
            `${app.url}/api/approve`,
            { context: DD, entityType: type, entityEventIds: ids.slice(i, i + 100_000) },
            approver,
          );
      }
    });
    console.log(`approved the pending dictionary changes in ${approved.seconds.toFixed(1)} s`);
  };
  const importOnce = async () => {
    const r = await timed(() =>
      postJson<{ Msg: string }>(
        `${app.url}/data-dictionary/import-metadata-from-source`,
        { EntityKeyID: meta.entityKeyID },
        admin,
      ),
    );
    run.messages.push(r.value.Msg);
    console.log(`import: ${r.seconds.toFixed(2)} s: ${r.value.Msg}`);
    return r.seconds;
  };
  run.importFirst = await importOnce();
  // The re-import compares with the approved dictionary, as after a reviewed first import.
  await approveAll();
  run.relations = await count(bench.raw, "dataobject");
  run.columns = await count(bench.raw, "dataelement");
  await change();
  run.importAgain = await importOnce();
  await postJson(
    `${app.url}/api/save`,
    {
      context: DD,
      entityType: "metadatasource",
      record: {
        entityKeyID: meta.entityKeyID,
        profilecolumns: true,
        sensitivecolumns: "*password*",
      },
    },
    admin,
  );
  run.importProfiled = await importOnce();
  return run;
}

/** 5% of the tables change: every 20th table gets a new column and a new comment. */
function postgresChanges(tables: number): string[] {
  const changes: string[] = [];
  for (let t = 20; t <= tables; t += 20) {
    changes.push(`alter table app${t % 10}.t${t} add column extra_${t} text`);
    changes.push(`comment on table app${t % 10}.t${t} is 'Changed table ${t}'`);
  }
  return changes;
}

async function runDictionary(): Promise<DictionaryRun> {
  const tables = envSize("BENCH_DD_TABLES", 2_000);
  const perTable = envNumber("BENCH_DD_COLUMNS_PER_TABLE", 20);
  const rows = envSize("BENCH_DD_ROWS", 1_000);
  await announceBench("dictionary");
  return withTempDir("dd", async (tmp) => {
    const connectionsDir = path.join(tmp, "connections");
    await fsp.mkdir(connectionsDir);
    const template = await sourceTemplate(tables, perTable, rows);
    return withThrowawayDatabase(
      "ddsource",
      async (source) => {
        if (!template) await fillSource(source.url, tables, perTable, rows);
        await connectSource(source, connectionsDir);
        return withBenchApp(
          "dictionary",
          MODEL_DIR,
          (setup) =>
            measureImports(setup, {
              technology: "postgres",
              tables,
              change: () => runStatements(source.url, postgresChanges(tables)),
            }),
          {
            CONNECTIONS_DIR: connectionsDir,
          },
        );
      },
      template,
    );
  });
}

/**
 * The same import from MariaDB (BENCH_DD_MARIADB=0 leaves it out; left out as well when no MariaDB
 * answers): 5% of the tables changed and 2% dropped before the re-import.
 */
async function runMariadbDictionary(): Promise<DictionaryRun | undefined> {
  if (process.env.BENCH_DD_MARIADB === "0") return undefined;
  if (!(await mariadbBenchReachable())) {
    console.log("No MariaDB server answers: the MariaDB source is left out");
    return undefined;
  }
  const tables = envSize("BENCH_DD_TABLES", 2_000);
  const perTable = envNumber("BENCH_DD_COLUMNS_PER_TABLE", 20);
  const rows = envSize("BENCH_DD_ROWS", 1_000);
  return withTempDir("dd-mariadb", async (tmp) => {
    const connectionsDir = path.join(tmp, "connections");
    await fsp.mkdir(connectionsDir);
    const source = await createMariadbBenchSource(tables, perTable, rows);
    try {
      await connectMariadbSource(source, connectionsDir, "bench.conf");
      return await withBenchApp(
        "dictionary_mariadb",
        MODEL_DIR,
        (setup) =>
          measureImports(setup, {
            technology: "mariadb",
            tables,
            change: () => source.exec(mariadbChanges(tables)),
          }),
        { CONNECTIONS_DIR: connectionsDir },
      );
    } finally {
      await source.drop();
    }
  });
}

async function reportDictionary(
  run: DictionaryRun,
  mariadb: DictionaryRun | undefined,
): Promise<void> {
  const file = await writeResult("dictionary", {
    import_first_s: round(run.importFirst),
    import_again_s: round(run.importAgain),
    import_profiled_s: round(run.importProfiled),
    relations: run.relations,
    columns: run.columns,
    ...(mariadb && {
      mariadb_import_first_s: round(mariadb.importFirst),
      mariadb_import_again_s: round(mariadb.importAgain),
      mariadb_import_profiled_s: round(mariadb.importProfiled),
      mariadb_relations: mariadb.relations,
      mariadb_columns: mariadb.columns,
    }),
  });
  const mariadbRows = mariadb
    ? [
        [
          `MariaDB: first import, ${mariadb.relations} relations (s)`,
          mariadb.importFirst,
          "<= 15",
          check(mariadb.importFirst <= 15),
        ],
        [
          "MariaDB: re-import, 5% changed, 2% dropped (s)",
          mariadb.importAgain,
          "<= 10",
          check(mariadb.importAgain <= 10),
        ],
        [
          "MariaDB: import again with profiles (s)",
          mariadb.importProfiled,
          `<= ${round(mariadb.importAgain + 30)}`,
          check(mariadb.importProfiled <= mariadb.importAgain + 30),
        ],
        ["MariaDB: columns", mariadb.columns, "", ""],
      ]
    : [];
  console.log(
    table([
      ["figure", "value", "target", "status"],
      [
        `first import, ${run.relations} relations (s)`,
        run.importFirst,
        "<= 15",
        check(run.importFirst <= 15),
      ],
      [
        "re-import, 5% of tables changed (s)",
        run.importAgain,
        "<= 10",
        check(run.importAgain <= 10),
      ],
      [
        "import again with profiles (s)",
        run.importProfiled,
        `<= ${round(run.importAgain + 30)}`,
        check(run.importProfiled <= run.importAgain + 30),
      ],
      ["relations", run.relations, "", ""],
      ["columns", run.columns, "", ""],
      ...mariadbRows,
    ]),
  );
  console.log(`Finished with ${loadNote()}. Figures: ${file}`);
}

export async function benchDictionary(): Promise<void> {
  const run = await runDictionary();
  await reportDictionary(run, await runMariadbDictionary());
}
