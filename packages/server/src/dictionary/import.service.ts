import type { ScalarValue } from "@ledgerline/contract";
import { type ContextRights, rightsOfRoles } from "../admin/permissions.ts";
import { counted } from "../counted.ts";
import type { CopyRows, Database, Db } from "../db/connection.ts";
import { AppError, ForbiddenError, NotFoundError } from "../errors.ts";
import { ingest } from "../ingest/ingest.service.ts";
import {
  IngestRejected,
  type IngestResult,
  outcomeParts,
  rowChunks,
} from "../ingest/ingest-input.ts";
import { proposalRightsOf } from "../ingest/proposal-rights.ts";
import type { IngestValue } from "../ingest/row-converter.ts";
import { operationStarted, outcomeOfError } from "../metrics/operations.ts";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";
import {
  type Notifier,
  notifyChangeSetWaiting,
  notifyImportFailed,
} from "../notifications/notify.service.ts";
import { buildIndexes } from "../records/index-rebuild.ts";
import { recordsWhere } from "../records/records.repository.ts";
import { runListQuery } from "../records/records.service.ts";
import { announceImportFinished } from "../webhooks/announcements.ts";
import { saveProfiles } from "./column-profiles.repository.ts";
import { dictionaryTypes } from "./dictionary-model.ts";
import { finishRun, startRun } from "./import-runs.repository.ts";
import { scheduledBy } from "./scheduled-by.repository.ts";
import { adapterFor } from "./sources/adapters.ts";
import {
  type CatalogObject,
  type CatalogReading,
  type ColumnProfile,
  indexesText,
} from "./sources/catalog.ts";
import { sensitivePatterns } from "./sources/sensitive-columns.ts";
import type { SourceConnection } from "./sources/source-adapter.ts";
import { SourceConnectionError } from "./sources/source-error.ts";

export interface ImportOutcome {
  message: string;
  objects: IngestResult;
  elements: IngestResult;
  lineage: IngestResult;
}

const MAX_ROWS = 5_000_000;

/** Catalog rows as the engine reads them, numbered from 1, checked against the type's rules. */
function chunksOf(
  type: EntityType,
  attributes: readonly Attribute[],
  values: readonly Record<string, IngestValue>[],
) {
  return rowChunks(
    type,
    attributes,
    values.map((v, i) => ({ rowNumber: i + 1, values: v, problems: [] })),
  );
}

/**
 * A metadata source as the import needs it: its name, and its system environment's technology and
 * connection file.
 */
export interface SourceToImport {
  name: string;
  technology: string;
  connectionFile: string;
  /** When the source's columns are profiled: the sensitive name patterns (regular expressions). */
  profile?: { sensitive: string[] };
}

/** The source's name, technology and connection file, or 404 when the source is unknown or discontinued. */
export async function sourceOf(
  db: Db,
  context: ContextModel,
  sourceKey: number,
): Promise<SourceToImport> {
  const { metadatasource } = dictionaryTypes(context);
  const { data } = await runListQuery(db, context, metadatasource, {
    context: context.name,
    entityType: metadatasource.name,
    entityKeyID: sourceKey,
    requestedAttributes: [
      "name",
      "systemenvironment.technology",
      "systemenvironment.connectionfile",
      "profilecolumns",
      "sensitivecolumns",
    ],
  });
  const values = data[0]?.requested.attrValues;
  const file = values?.["systemenvironment.connectionfile"]?.value;
  if (typeof file !== "string") throw new NotFoundError(`No metadata source with key ${sourceKey}`);
  return {
    name: String(values?.name?.value ?? ""),
    technology: String(values?.["systemenvironment.technology"]?.value ?? ""),
    connectionFile: file,
    profile:
      values?.profilecolumns?.value === true
        ? { sensitive: sensitivePatterns(values.sensitivecolumns?.value as string | null) }
        : undefined,
  };
}

/** The source database of a metadata source, through its technology's adapter. */
export function openSource(
  connectionsDir: string,
  source: SourceToImport,
): Promise<SourceConnection> {
  return adapterFor(source.technology).open(connectionsDir, source.connectionFile);
}

/**
 * Reads the source database's catalog (read-only, with timeouts), answering as soon as its objects
 * are read: the import writes its data objects while the columns still arrive. A failure to read
 * the columns (or lineage) is the elements' to answer.
 */
export async function readSourceCatalog(
  connectionsDir: string,
  source: SourceToImport,
): Promise<CatalogReading & { profiles: Promise<ColumnProfile[]> }> {
  const connection = await openSource(connectionsDir, source);
  let objectsRead: (objects: CatalogObject[]) => void = () => undefined;
  const objects = new Promise<CatalogObject[]>((resolve) => {
    objectsRead = resolve;
  });
  const catalog = connection.readCatalog(objectsRead);
  const rest = catalog.then(({ elements, lineage }) => ({ elements, lineage }));
  // Read while the catalog is written, on a session of their own.
  const { profile } = source;
  const profiles = profile
    ? catalog.then((c) => connection.profileColumns(c, profile.sensitive))
    : Promise.resolve([]);
  // Handled here as well: an import that fails before it needs the columns never awaits them.
  rest.catch(() => undefined);
  profiles.catch(() => undefined);
  return {
    objects: await Promise.race([objects, catalog.then((c) => c.objects)]),
    rest,
    profiles,
  };
}

/** Who proposes what an import finds (the caller, or the user who scheduled the source), with their rights. */
export interface ImportProposer {
  username: string;
  rights: ContextRights;
}

/** The name a scheduled run is recorded under when no person stands behind its schedule. */
const NOBODY = "scheduler";

/**
 * The proposer of a scheduled import: the user who last saved the source (its schedule enabled,
 * as the scheduler only runs such sources), with the roles they hold now. Undefined when no active
 * user did (a seeded source, or its author removed since).
 */
export async function whoScheduled(
  db: Db,
  context: ContextModel,
  sourceKey: number,
): Promise<ImportProposer | undefined> {
  const { metadatasource } = dictionaryTypes(context);
  const found = await scheduledBy(db, context, metadatasource, sourceKey);
  if (!found) return undefined;
  const rights = rightsOfRoles(context, new Map([[context.name, new Set(found.roles)]]));
  return { username: found.username, rights };
}

/**
 * What a failed import's run records, which users read in `lastimport`: the message of an error
 * worded for them, otherwise a plain sentence (a database's or the file system's text can hold SQL,
 * names and paths).
 */
function failureText(error: unknown): string {
  return error instanceof AppError ||
    error instanceof SourceConnectionError ||
    error instanceof IngestRejected
    ? error.message
    : "a server error stopped the import; the server log has the details";
}

function counts(one: string, r: IngestResult): string {
  return `${counted(r.rows, one)} (${r.added} added, ${r.changed} changed, ${r.missing} missing, ${r.unchanged} unchanged)`;
}

/**
 * Imports a metadata source: catalog in, data objects and data elements through the ingest engine
 * (Add / Change / Missing scoped to this source) in one transaction, the run recorded. Only the
 * attributes the import owns are written; curated documentation is never touched. The proposer
 * is the caller of a manual run and, for a scheduled one, the user who scheduled the source
 * (whoScheduled): each type's changes need their rights (create for Add, edit for Change, delete
 * for Missing), and wait for a second person wherever the type's uploads need approval.
 */
export async function importMetadataSource(
  database: Database,
  context: ContextModel,
  options: {
    sourceKey: number;
    connectionsDir: string;
    notifier: Notifier;
    /**
     * Takes the index builds that a bulk write (the first import of a large source) leaves for
     * after the commit, started once the run's outcome is written, so that the answer need not
     * wait for them, as after an upload's first load. Without it they are built before the commit.
     */
    afterCommit?: (indexBuilds: Promise<void>) => void;
  } & ({ trigger: "manual"; proposer: ImportProposer } | { trigger: "schedule" }),
): Promise<ImportOutcome> {
  const { db } = database;
  const proposer =
    options.trigger === "manual"
      ? options.proposer
      : await whoScheduled(db, context, options.sourceKey);
  const runId = await startRun(db, {
    sourceId: options.sourceKey,
    trigger: options.trigger,
    user: proposer?.username ?? NOBODY,
  });
  const ended = operationStarted("import");
  let source: SourceToImport | undefined;
  try {
    if (!proposer)
      throw new ForbiddenError(
        "nobody stands behind this schedule (the user who last saved the source is removed, or none did): save the source with 'Enable Schedule' to run it as yourself",
      );
    source = await sourceOf(db, context, options.sourceKey);
    const catalog = await readSourceCatalog(options.connectionsDir, source);
    const sourceName = source.name;
    const later: string[] = [];
    const buildIndexesLater = options.afterCommit
      ? (definitions: string[]) => later.push(...definitions)
      : undefined;
    const outcome = await database.transaction(async (tx) => {
      const written = await ingestCatalog(tx, context, catalog, {
        copyRows: database.copyRows,
        sourceKey: options.sourceKey,
        proposer,
        buildIndexesLater,
      });
      const profiles = await catalog.profiles;
      if (profiles.length > 0) {
        await saveProfiles(tx, runId, profiles);
        written.message += `; ${counted(profiles.length, "column")} profiled`;
      }
      const { dataobject, dataelement, lineage } = dictionaryTypes(context);
      await notifyChangeSetWaiting(tx, options.notifier, {
        context,
        written: [
          { type: dataobject, result: written.objects },
          { type: dataelement, result: written.elements },
          { type: lineage, result: written.lineage },
        ],
        source: `import:${options.sourceKey}`,
        what: `the metadata import of ${sourceName}`,
        by: proposer.username,
      });
      return written;
    });
    try {
      const finished = {
        succeeded: true,
        message: outcome.message,
        counts: {
          objects: outcome.objects.rows,
          elements: outcome.elements.rows,
          pending: outcome.objects.pending + outcome.elements.pending + outcome.lineage.pending,
        },
      };
      await db.transaction().execute(async (tx) => {
        await finishRun(tx, runId, finished);
        await announceImportFinished(tx, context, {
          ...finished,
          sourceKey: options.sourceKey,
          sourceName,
          trigger: options.trigger,
        });
      });
    } finally {
      // Started after the run's outcome: on PGlite's one session they would be served first.
      if (later.length > 0) options.afterCommit?.(buildIndexes(db, later));
    }
    ended("finished", outcome.objects.rows + outcome.elements.rows + outcome.lineage.rows);
    return outcome;
  } catch (error) {
    ended(outcomeOfError(error));
    const message = failureText(error);
    await db.transaction().execute(async (tx) => {
      await finishRun(tx, runId, { succeeded: false, message });
      await announceImportFinished(tx, context, {
        sourceKey: options.sourceKey,
        sourceName: source?.name ?? `#${options.sourceKey}`,
        trigger: options.trigger,
        succeeded: false,
        message,
      });
      if (options.trigger === "schedule")
        await notifyImportFailed(tx, options.notifier, {
          context,
          sourceKey: options.sourceKey,
          sourceName: source?.name ?? `#${options.sourceKey}`,
          error: message,
        });
    });
    throw error;
  }
}

async function ingestCatalog(
  tx: Db,
  context: ContextModel,
  catalog: CatalogReading,
  options: {
    copyRows: CopyRows;
    sourceKey: number;
    proposer: ImportProposer;
    buildIndexesLater: ((definitions: string[]) => void) | undefined;
  },
): Promise<ImportOutcome> {
  const { dataobject, dataelement, lineage: lineageType } = dictionaryTypes(context);
  const { copyRows, sourceKey, proposer, buildIndexesLater } = options;
  const user = proposer.username;
  const rightsOn = (type: EntityType) => proposalRightsOf(proposer.rights.flagsOf(type.name));
  const common = {
    copyRows,
    context,
    dryRun: false,
    confirmMassMissing: true,
    source: `import:${sourceKey}`,
    user,
    maxRows: MAX_ROWS,
    deleteMissing: true,
    buildIndexesLater,
  };
  const attributesOf = (type: EntityType, names: string[]) =>
    type.attributes.filter((a) => names.includes(a.name));

  const objectColumns = [
    "metadatasource",
    "schema",
    "name",
    "kind",
    "description",
    "rowestimate",
    "lineage",
    "definition",
    "indexes",
  ];
  const objectAttributes = attributesOf(dataobject, objectColumns);
  const objects = await ingest(tx, {
    ...common,
    type: dataobject,
    attributes: objectAttributes,
    chunks: chunksOf(
      dataobject,
      objectAttributes,
      catalog.objects.map((o) => ({
        metadatasource: sourceKey,
        schema: o.schema,
        name: o.name,
        kind: o.kind,
        description: o.description,
        rowestimate: o.rowestimate,
        lineage: o.lineage,
        definition: o.definition,
        indexes: indexesText(o.indexes),
      })),
    ),
    columnName: (name) => name,
    missingScope: { attribute: "metadatasource", values: [sourceKey] },
    apply: !dataobject.approval.upload,
    rights: rightsOn(dataobject),
  });

  const known = await recordsWhere(
    tx,
    context,
    dataobject,
    { attribute: "metadatasource", value: sourceKey },
    ["schema", "name"],
  );
  const keyOf = new Map(known.map((k) => [`${k.values.schema}.${k.values.name}`, k.entityKeyId]));
  const elementColumns = [
    "dataobject",
    "name",
    "position",
    "datatype",
    "nullable",
    "defaultvalue",
    "primarykey",
    "foreignkey",
    "uniquekey",
    "description",
  ];
  const elementAttributes = attributesOf(dataelement, elementColumns);
  const { elements: columns, lineage: reads } = await catalog.rest;
  const elements = await ingest(tx, {
    ...common,
    type: dataelement,
    attributes: elementAttributes,
    chunks: chunksOf(
      dataelement,
      elementAttributes,
      columns.map((e) => ({
        dataobject: keyOf.get(`${e.schema}.${e.object}`) as ScalarValue,
        name: e.name,
        position: e.position,
        datatype: e.datatype,
        nullable: e.nullable,
        defaultvalue: e.defaultvalue,
        primarykey: e.primarykey,
        foreignkey: e.foreignkey,
        uniquekey: e.uniquekey,
        description: e.description,
      })),
    ),
    columnName: (name) => name,
    missingScope: { attribute: "dataobject", values: known.map((k) => k.entityKeyId) },
    apply: !dataelement.approval.upload,
    rights: rightsOn(dataelement),
  });
  const lineageAttributes = attributesOf(lineageType, ["view", "reads", "readsobject", "columns"]);
  const lineage = await ingest(tx, {
    ...common,
    type: lineageType,
    attributes: lineageAttributes,
    chunks: chunksOf(
      lineageType,
      lineageAttributes,
      reads.map((r) => ({
        view: keyOf.get(`${r.schema}.${r.view}`) as ScalarValue,
        reads: `${r.readsSchema}.${r.readsName}`,
        readsobject: keyOf.get(`${r.readsSchema}.${r.readsName}`) ?? null,
        columns: r.columns.length > 0 ? r.columns.join(", ") : null,
      })),
    ),
    columnName: (name) => name,
    missingScope: { attribute: "view", values: known.map((k) => k.entityKeyId) },
    apply: !lineageType.approval.upload,
    rights: rightsOn(lineageType),
  });
  const written = [objects, elements, lineage];
  const sum = (part: "applied" | "pending" | "superseded") =>
    written.reduce((total, r) => total + r[part], 0);
  return {
    message: [
      `metadata imported: ${counts("data object", objects)}`,
      counts("data element", elements),
      // Only where there are views: a source without any reads as before.
      ...(lineage.rows + lineage.missing > 0 ? [counts("view lineage", lineage)] : []),
      ...outcomeParts({
        applied: sum("applied"),
        pending: sum("pending"),
        superseded: sum("superseded"),
      }),
    ].join("; "),
    objects,
    elements,
    lineage,
  };
}
