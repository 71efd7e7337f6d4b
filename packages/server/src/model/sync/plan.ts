import { SYSTEM_COLUMNS } from "../model.ts";
import * as ddl from "./ddl.ts";
import type { DesiredState, DesiredTable } from "./desired.ts";
import type { ActualState } from "./introspect.ts";

/** One step of bringing the database in line with the model; `destructive` steps need an explicit go-ahead. */
export interface SyncAction {
  description: string;
  destructive: boolean;
  sql: string[];
}

const systemColumns: ReadonlySet<string> = new Set(SYSTEM_COLUMNS);

/** The ordered actions that turn `actual` into `desired`. Pure: same inputs, same list. */
export function planSync(desired: DesiredState, actual: ActualState): SyncAction[] {
  const early: SyncAction[] = [];
  const late: SyncAction[] = [];
  const act = (list: SyncAction[], description: string, sql: string[], destructive = false) =>
    list.push({ description, destructive, sql });

  if (!actual.extensions.has("pg_trgm"))
    act(early, "create extension pg_trgm", ["create extension if not exists pg_trgm"]);

  for (const schema of desired.schemas) {
    if (!actual.schemas.has(schema))
      act(early, `create schema ${schema}`, [ddl.createSchemaSql(schema)]);
  }
  for (const schema of actual.schemas) {
    if (!desired.schemas.includes(schema))
      act(
        early,
        `drop schema ${schema} (its context is no longer in the model)`,
        [ddl.dropSchemaSql(schema)],
        true,
      );
  }

  const wanted = new Set(
    desired.tables.flatMap((t) => [`${t.schema}.${t.table}`, `${t.schema}.${t.history.table}`]),
  );
  for (const key of actual.tables.keys()) {
    const [schema, table] = key.split(".");
    if (desired.schemas.includes(schema) && !wanted.has(key)) {
      if (actual.views.has(`${schema}.${table}__v`))
        act(early, `drop view ${schema}.${table}__v`, [ddl.dropViewSql(schema, `${table}__v`)]);
      act(
        early,
        `drop table ${key} (entity type removed)`,
        [ddl.dropTableSql(schema, table)],
        true,
      );
    }
  }

  for (const table of desired.tables) planTable(table, actual, early, late);
  return [...early, ...late];
}

function planTable(
  t: DesiredTable,
  actual: ActualState,
  early: SyncAction[],
  late: SyncAction[],
): void {
  const key = `${t.schema}.${t.table}`;
  const existing = actual.tables.get(key);
  const viewKey = `${t.schema}.${t.view.name}`;
  const viewExists = actual.views.has(viewKey);
  const columnSteps: SyncAction[] = [];

  if (!existing) {
    columnSteps.push({
      description: `create table ${key}`,
      destructive: false,
      sql: [ddl.createTableSql(t.schema, t.table, t.columns)],
    });
  } else {
    const wantedColumns = new Set(t.columns.map((c) => c.name));
    if (!existing.has(ddl.TREE_PATH.name))
      columnSteps.push({
        description: `add column ${key}.${ddl.TREE_PATH.name} ${ddl.TREE_PATH.sqlType}`,
        destructive: false,
        sql: [ddl.addColumnSql(t.schema, t.table, ddl.TREE_PATH)],
      });
    for (const c of t.columns) {
      const have = existing.get(c.name);
      if (!have) {
        columnSteps.push({
          description: `add column ${key}.${c.name} ${c.sqlType}`,
          destructive: false,
          sql: [ddl.addColumnSql(t.schema, t.table, c)],
        });
      } else if (have.sqlType !== c.sqlType) {
        columnSteps.push({
          description: `change type of ${key}.${c.name} from ${have.sqlType} to ${c.sqlType}`,
          destructive: true,
          sql: [ddl.alterColumnTypeSql(t.schema, t.table, c.name, c.sqlType)],
        });
      }
    }
    for (const name of existing.keys()) {
      if (!systemColumns.has(name) && !wantedColumns.has(name))
        columnSteps.push({
          description: `drop column ${key}.${name} (attribute removed)`,
          destructive: true,
          sql: [ddl.dropColumnSql(t.schema, t.table, name)],
        });
    }
  }

  const viewStale = actual.views.get(viewKey) !== t.view.fingerprint;
  // A view pins its table's columns (`t.*` is expanded when it is made): drop it before any column
  // is dropped or retyped, and rebuild it after; also to show a system column added to the table.
  const columnsChange =
    columnSteps.some((s) => s.destructive) ||
    (existing !== undefined && !existing.has(ddl.TREE_PATH.name));
  if (viewExists && (viewStale || columnsChange))
    early.push({
      description: `drop view ${viewKey}`,
      destructive: false,
      sql: [ddl.dropViewSql(t.schema, t.view.name)],
    });
  early.push(...columnSteps);
  early.push(...historySteps(t, actual));
  early.push(...treeSteps(t, actual));

  for (const fk of t.foreignKeys) {
    if (!actual.foreignKeys.has(`${t.schema}.${fk.name}`))
      late.push({
        description: `add foreign key ${key}.${fk.column} -> ${t.schema}.${fk.refTable}`,
        destructive: false,
        sql: [ddl.addForeignKeySql(t.schema, t.table, fk.name, fk.column, fk.refTable)],
      });
  }

  const indexed = [
    ...t.indexes.map((index) => ({ index, table: t.table })),
    ...t.history.indexes.map((index) => ({ index, table: t.history.table })),
  ];
  const wantedIndexes = new Set(indexed.map(({ index }) => index.name));
  for (const index of actual.indexes) {
    const [schema, name] = index.split(".");
    if (schema === t.schema && name.startsWith(`${t.table}__`) && !wantedIndexes.has(name))
      late.push({
        description: `drop index ${index}`,
        destructive: false,
        sql: [ddl.dropIndexSql(schema, name)],
      });
  }
  for (const { index: i, table } of indexed) {
    if (!actual.indexes.has(`${t.schema}.${i.name}`))
      late.push({
        description: `create ${i.kind} index ${t.schema}.${i.name}`,
        destructive: false,
        sql: [ddl.createIndexSql(t.schema, table, i.name, i.kind, i.columns)],
      });
  }

  if (!viewExists || viewStale || columnsChange)
    late.push({
      description: `create view ${viewKey}`,
      destructive: false,
      sql: [
        ddl.createViewSql(t.schema, t.view.name, t.view.select),
        ddl.commentOnViewSql(t.schema, t.view.name, t.view.fingerprint),
      ],
    });
}

/**
 * The history table follows its entity table: made (with its trigger, and filled from the events
 * of records written before it existed) once the table has its columns, then given each column
 * the table gains, loses or retypes. Its columns are nullable: older versions predate new ones.
 */
function historySteps(t: DesiredTable, actual: ActualState): SyncAction[] {
  const key = `${t.schema}.${t.history.table}`;
  const existing = actual.tables.get(key);
  if (!existing)
    return [
      {
        description: `create history table ${key}`,
        destructive: false,
        sql: [
          ...ddl.createHistoryTableSql(t.schema, t.table, t.history.table),
          ddl.backfillHistorySql(t.schema, t.history.table, t.context, t.table, t.columns),
        ],
      },
    ];
  const steps: SyncAction[] = [];
  const wanted = new Set(t.columns.map((c) => c.name));
  for (const c of [ddl.TREE_PATH, ...t.columns]) {
    const have = existing.get(c.name);
    if (!have)
      steps.push({
        description: `add column ${key}.${c.name} ${c.sqlType}`,
        destructive: false,
        sql: [ddl.addColumnSql(t.schema, t.history.table, { ...c, notNull: false })],
      });
    else if (have.sqlType !== c.sqlType)
      steps.push({
        description: `change type of ${key}.${c.name} from ${have.sqlType} to ${c.sqlType}`,
        destructive: true,
        sql: [ddl.alterColumnTypeSql(t.schema, t.history.table, c.name, c.sqlType)],
      });
  }
  for (const name of existing.keys()) {
    if (!systemColumns.has(name) && name !== "valid_to" && !wanted.has(name))
      steps.push({
        description: `drop column ${key}.${name} (attribute removed)`,
        destructive: true,
        sql: [ddl.dropColumnSql(t.schema, t.history.table, name)],
      });
  }
  return steps;
}

/**
 * A tree's stored paths follow its parent attribute: the triggers that keep them are made (and
 * the paths written) when a type gains one, made again when it names another, and dropped (the
 * paths cleared) when it loses it.
 */
function treeSteps(t: DesiredTable, actual: ActualState): SyncAction[] {
  const key = `${t.schema}.${t.table}`;
  const have = actual.treeTriggers.get(key);
  if (have === (t.treeParent ?? undefined)) return [];
  const steps: SyncAction[] = [];
  if (have !== undefined)
    steps.push({
      description: `drop tree path triggers of ${key}`,
      destructive: false,
      sql: ddl.dropTreeTriggersSql(t.schema, t.table),
    });
  if (t.treeParent !== null)
    steps.push({
      description: `create tree path triggers of ${key} (parent ${t.treeParent})`,
      destructive: false,
      sql: ddl.createTreeTriggersSql(t.schema, t.table, t.treeParent),
    });
  return steps;
}
