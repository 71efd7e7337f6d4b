import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { CopyRows, Db } from "../db/connection.ts";
import { type CopyData, flatCopyData } from "../db/copy-text.ts";
import { isUniqueViolation } from "../db/pg-errors.ts";
import type { Attribute } from "../model/model.ts";
import { SQL_TYPES } from "../model/sync/ddl.ts";
import type { ResolvedChunk } from "./rows.ts";

/**
 * The staging tables of one ingest: the rows as read (`stageTable`), then the diff the
 * classification makes of them (`diffTable`): one row per Add, Change or Missing.
 */
export interface Stage {
  /** Table name in the `app` schema. */
  name: string;
  /** The attributes present in the file, in column order. */
  attributes: Attribute[];
}

export const STAGE_PREFIX = "ingest_stage_";

/** The rows as read, as a SQL identifier. */
export const stageTable = (stage: Stage) => sql.table(`app.${stage.name}`);
/** The classified rows, as a SQL identifier. */
export const diffTable = (stage: Stage) => sql.table(`app.${stage.name}_diff`);
/** The problems of the rows that break a rule alone (ingest/rule-breaking.ts), as a SQL identifier. */
export const rulesTable = (stage: Stage) => sql.table(`app.${stage.name}_rules`);

/**
 * Creates the staging table. It is a plain (unlogged) table rather than a temporary one because
 * the rows arrive in several short transactions, possibly on different pooled connections.
 */
export async function createStage(db: Db, attributes: Attribute[]): Promise<Stage> {
  // The creation time in the name lets a restart tell abandoned stages from another instance's live ones.
  const created = Math.floor(Date.now() / 1000);
  const stage = { name: `${STAGE_PREFIX}${created}_${randomBytes(4).toString("hex")}`, attributes };
  const columns = attributes.map((a) => sql`${sql.id(a.name)} ${sql.raw(SQL_TYPES[a.dataType])}`);
  await sql`create unlogged table ${stageTable(stage)} (_row_no integer not null, ${sql.join(columns)})`.execute(
    db,
  );
  return stage;
}

/** A chunk of converted rows as the stage's COPY reads them: the row number, then the attributes. */
export function stageCopyData(stage: Stage, chunk: ResolvedChunk): CopyData {
  if (chunk.copyText) return { text: chunk.copyText, rows: chunk.rowNumbers.length };
  return flatCopyData(chunk.values, stage.attributes.length, chunk.rowNumbers);
}

/** Adds a chunk (stageCopyData) to the stage with COPY. */
export async function insertStageRows(
  db: Db,
  copyRows: CopyRows,
  stage: Stage,
  data: CopyData,
): Promise<void> {
  if (data.rows === 0) return;
  const names = stage.attributes.map((a) => a.name);
  await copyRows(db, { schema: "app", table: stage.name, columns: ["_row_no", ...names] }, data);
}

/**
 * Indexes the stage by natural key, unique: building it is the check that no key repeats, and
 * gives the planner the stage's size. Answers false, and leaves no index, when a key repeats.
 */
export async function indexStageKeys(
  db: Db,
  stage: Stage,
  identity: readonly string[],
): Promise<boolean> {
  const create = sql`create unique index on ${stageTable(stage)} (${sql.join(identity.map((n) => sql.id(n)))})`;
  // Inside a caller's transaction a failed statement would abort it: fail within a savepoint.
  const guarded = db.isTransaction;
  if (guarded) await sql`savepoint stage_keys`.execute(db);
  try {
    await create.execute(db);
    if (guarded) await sql`release savepoint stage_keys`.execute(db);
    return true;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    if (guarded) await sql`rollback to savepoint stage_keys`.execute(db);
    return false;
  }
}

/** Whether some natural key repeats in the stage. */
export async function keysRepeat(
  db: Db,
  stage: Stage,
  identity: readonly string[],
): Promise<boolean> {
  const cols = identity.map((n) => sql.id(n));
  const { rows } = await sql<{ repeat: boolean }>`
    select exists (select from ${stageTable(stage)} group by ${sql.join(cols)} having count(*) > 1) as repeat`.execute(
    db,
  );
  return rows[0].repeat;
}

/** Rows sharing a natural key: the key text and the row numbers, at most `limit` keys. */
export async function duplicateKeys(
  db: Db,
  stage: Stage,
  identity: readonly string[],
  limit: number,
): Promise<{ key: string; rows: number[] }[]> {
  const cols = identity.map((n) => sql.id(n));
  const { rows } = await sql<{ key: string; rows: number[] }>`
    select concat_ws(' / ', ${sql.join(cols)}) as key, array_agg(_row_no order by _row_no) as rows
    from ${stageTable(stage)} group by ${sql.join(cols)} having count(*) > 1
    order by min(_row_no) limit ${limit}`.execute(db);
  return rows;
}

/**
 * A stage beside the file's `stage`, in the same transaction, named with `suffix`: for each chunk
 * of the file in turn, or for the rows left to write at the end (diff-while-reading.ts).
 */
export async function createStageBeside(db: Db, stage: Stage, suffix: string): Promise<Stage> {
  const beside = { name: `${stage.name}_${suffix}`, attributes: stage.attributes };
  await sql`create unlogged table ${stageTable(beside)} (like ${stageTable(stage)})`.execute(db);
  return beside;
}

/** Appends the rows of stage `from` to stage `to`, as far as `to` has their attributes. */
export async function appendStage(db: Db, from: Stage, to: Stage): Promise<void> {
  const columns = sql.join([sql.id("_row_no"), ...to.attributes.map((a) => sql.id(a.name))]);
  await sql`insert into ${stageTable(to)} (${columns}) select ${columns} from ${stageTable(from)}`.execute(
    db,
  );
}

/**
 * The most rows of a diff written by one statement. On PGlite every other caller waits for each
 * statement (pglite-guests.ts serves them between two), and each record written there costs
 * 0.1-0.4 ms with a type's dozen indexes: up to 60-240 ms a slice.
 */
const SLICE_ROWS = 600;

/**
 * Writes the diff of `stage` in slices of at most SLICE_ROWS rows, as few as that allows and of
 * equal size: `write` is given each slice, in the file's order (Missing rows by record), as the
 * diff of a stage of its own. A diff of at most SLICE_ROWS rows is given as it is. The tables it
 * makes are made once, for every chunk of the file (tables made per chunk would each keep their
 * locks until the commit); `drop` drops them.
 */
export function diffSlices(stage: Stage) {
  const numbered = sql.table(`app.${stage.name}_numbered`);
  const slice: Stage = { name: `${stage.name}_slice`, attributes: stage.attributes };
  let made = false;
  return {
    async write(db: Db, rows: number, write: (slice: Stage) => Promise<void>): Promise<void> {
      if (rows <= SLICE_ROWS) return write(stage);
      // Each row of the diff whole, as one value of the diff's row type, after its number.
      const numberedRows = sql`select row_number() over (order by d._row_no, d._key_id) as n, d
        from ${diffTable(stage)} d`;
      if (made) {
        await sql`truncate ${numbered}`.execute(db);
        await sql`insert into ${numbered} ${numberedRows}`.execute(db);
      } else {
        await sql`create unlogged table ${numbered} as ${numberedRows}`.execute(db);
        await sql`create index on ${numbered} (n)`.execute(db);
        await sql`create unlogged table ${diffTable(slice)} (like ${diffTable(stage)})`.execute(db);
        made = true;
      }
      const size = Math.ceil(rows / Math.ceil(rows / SLICE_ROWS));
      for (let from = 0; from < rows; from += size) {
        await sql`truncate ${diffTable(slice)}`.execute(db);
        await sql`insert into ${diffTable(slice)} select (d).* from ${numbered}
          where n > ${from} and n <= ${from + size}`.execute(db);
        await write(slice);
      }
    },
    async drop(db: Db): Promise<void> {
      if (made) await sql`drop table ${numbered}, ${diffTable(slice)}`.execute(db);
    },
  };
}

/** Empties a stage and its diff (chunkDiff), for the next chunk. */
export async function emptyStage(db: Db, stage: Stage): Promise<void> {
  await sql`truncate ${stageTable(stage)}, ${diffTable(stage)}`.execute(db);
}

export async function dropStage(db: Db, stage: Stage): Promise<void> {
  await sql`drop table if exists ${stageTable(stage)}, ${diffTable(stage)}, ${rulesTable(stage)}`.execute(
    db,
  );
}

/** Drops staging tables an interrupted ingest left behind (older than an hour, the longest an upload may take). */
export async function dropLeftoverStages(db: Db, now = Date.now()): Promise<number> {
  const { rows } = await sql<{ name: string }>`
    select tablename as name from pg_tables where schemaname = 'app' and tablename like ${`${STAGE_PREFIX}%`}`.execute(
    db,
  );
  const abandoned = rows.filter((r) => {
    const created = Number(r.name.slice(STAGE_PREFIX.length).split("_")[0]);
    return !Number.isFinite(created) || created * 1000 < now - 3_600_000;
  });
  // cascade: a diff's numbered copy (diffSlices) holds rows of the diff's type.
  for (const r of abandoned)
    await sql`drop table if exists ${sql.table(`app.${r.name}`)} cascade`.execute(db);
  return abandoned.length;
}
