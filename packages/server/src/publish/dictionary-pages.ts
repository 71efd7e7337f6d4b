import type { StoredProfile } from "../dictionary/column-profiles.repository.ts";
import type { DictionarySnapshot, Row } from "./dictionary-snapshot.ts";
import { type Block, type Cell, doc, type Inline, type PageDoc } from "./document.ts";
import { mermaidEntity, mermaidLabel } from "./mermaid.ts";

// Code-point order, so page order never depends on the machine's locale data.
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v));
// Letters, digits, '.', '-' and single underscores, none at either end: MediaWiki reads an
// underscore as a space, folds runs of them and drops a trailing one, so any other id would come
// back from the wiki as a different id and its page would be rewritten at every publish.
const slug = (v: unknown): string =>
  str(v)
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/_+/g, "_")
    .replace(/^[-_]+|[-_]+$/g, "") || "unnamed";
const byName = (a: Row, b: Row) => compare(str(a.name), str(b.name)) || a.key - b.key;

export const HOME = "Home";

/** The page id of every application and data object (see buildPageIds). */
interface PageIds {
  application(app: Row): string;
  object(object: Row): string;
}

/**
 * Gives each row the id `base` makes; rows whose ids meet (`a__b` and `a_b`, `a b` and `a-b`) are
 * told apart by their key, the lowest key keeping the plain id, so ids stay unique and stable.
 */
function uniqueIds(rows: readonly Row[], base: (row: Row) => string): Map<number, string> {
  const sorted = [...rows].sort((a, b) => a.key - b.key);
  const taken = new Set(sorted.map(base));
  const claimed = new Set<string>();
  const ids = new Map<number, string>();
  for (const row of sorted) {
    let id = base(row);
    if (claimed.has(id)) {
      do {
        id = `${id}-${row.key}`;
      } while (taken.has(id));
      taken.add(id);
    }
    claimed.add(id);
    ids.set(row.key, id);
  }
  return ids;
}

function buildPageIds(s: DictionarySnapshot): PageIds {
  const applications = uniqueIds(s.applications, (app) => `Application-${slug(app.name)}`);
  const objects = uniqueIds(
    s.objects,
    (o) => `Object-${str(o.metadatasource)}-${slug(o.schema)}.${slug(o.name)}`,
  );
  const idOf = (ids: Map<number, string>, row: Row) => {
    const id = ids.get(row.key);
    if (id === undefined) throw new Error(`no page id for record ${row.key}`);
    return id;
  };
  return {
    application: (app) => idOf(applications, app),
    object: (object) => idOf(objects, object),
  };
}

/** Curated documentation goes above the generated tables. */
function curated(row: Row): Block[] {
  return [row.intro, row.editiondetail]
    .filter((t) => str(t).trim() !== "")
    .map((t) => doc.paragraph(str(t)));
}

function homePage(s: DictionarySnapshot, ids: PageIds): PageDoc {
  const apps = [...s.applications].sort(byName);
  return {
    id: HOME,
    title: "Data Dictionary",
    blocks: [
      doc.heading(1, "Data Dictionary"),
      doc.paragraph(
        `${apps.length} applications, ${s.objects.length} data objects, ${s.elements.length} data elements.`,
      ),
      {
        kind: "list",
        items: apps.map((a) => [
          doc.link(ids.application(a), str(a.name)),
          ...(a.description ? [` - ${str(a.description)}`] : []),
        ]),
      },
    ],
  };
}

function applicationPage(
  s: DictionarySnapshot,
  ids: PageIds,
  app: Row,
  objectsBySource: Map<number, Row[]>,
): PageDoc {
  const sources = s.sources.filter((src) => src.application === app.key).sort(byName);
  const blocks: Block[] = [doc.heading(1, str(app.name)), ...curated(app)];
  if (app.description) blocks.push(doc.paragraph(str(app.description)));
  if (app.owner) blocks.push(doc.paragraph(`Owner: ${str(app.owner)}`));
  blocks.push(doc.heading(2, "Metadata sources"));
  blocks.push({
    kind: "table",
    header: ["Name", "Aspect", "System environment", "Technology", "Description"],
    rows: sources.map((src) => [
      str(src.name),
      str(src["applicationaspect:label"]),
      str(src["systemenvironment:label"]),
      str(src["systemenvironment.technology"]),
      str(src.description),
    ]),
  });
  for (const src of sources) {
    const objects = [...(objectsBySource.get(src.key) ?? [])].sort((a, b) =>
      compare(`${str(a.schema)}.${str(a.name)}`, `${str(b.schema)}.${str(b.name)}`),
    );
    blocks.push(
      doc.heading(2, `${str(src.name)} (${str(src["applicationaspect:label"])})`),
      ...curated(src),
    );
    blocks.push({
      kind: "table",
      header: ["Object", "Kind", "Rows (estimate)", "Description"],
      rows: objects.map((o) => [
        [doc.link(ids.object(o), `${str(o.schema)}.${str(o.name)}`)],
        str(o.kind),
        rowEstimate(o),
        str(o.description),
      ]),
    });
  }
  return { id: ids.application(app), title: str(app.name), blocks };
}

/**
 * Kinds whose estimate is missing only when never analysed (a view holds no rows; a partitioned
 * table's is its partitions' sum, missing also when they are empty).
 */
const STORED_KINDS = new Set(["table", "materialized view"]);

/** A data object's row estimate as pages show it: 'not analysed' where the source has none yet. */
function rowEstimate(o: Row): string {
  if (o.rowestimate !== null) return str(o.rowestimate);
  return STORED_KINDS.has(str(o.kind)) ? "not analysed" : "";
}

const entityName = (o: Row) => mermaidEntity(`${slug(o.schema)}__${slug(o.name)}`);

/**
 * The data object a foreign key (`schema.table.column`) refers to. Names may hold dots themselves,
 * so every split is tried; the longest `schema.table` known wins, so the answer never depends on
 * the order of the objects.
 */
function referredObject(objects: Map<string, Row>, foreignkey: unknown): Row | undefined {
  const fk = str(foreignkey);
  let found: Row | undefined;
  for (let dot = fk.indexOf("."); dot >= 0; dot = fk.indexOf(".", dot + 1)) {
    found = objects.get(fk.slice(0, dot)) ?? found;
  }
  return found;
}

function objectPage(
  ids: PageIds,
  object: Row,
  elements: Row[],
  sourceObjects: Map<string, Row>,
  referrers: Row[],
  source: Row | undefined,
  lineage: ObjectLineage,
  profiles: Map<string, StoredProfile>,
): PageDoc {
  const fkTarget = (fk: unknown) => referredObject(sourceObjects, fk);
  const keys = (e: Row): Inline[] => {
    const parts: Inline[] = [];
    if (e.primarykey) parts.push("PK");
    if (e.foreignkey) {
      const target = fkTarget(e.foreignkey);
      if (parts.length > 0) parts.push(", ");
      parts.push(
        "FK ",
        target ? doc.link(ids.object(target), str(e.foreignkey)) : str(e.foreignkey),
      );
    }
    if (e.uniquekey) {
      if (parts.length > 0) parts.push(", ");
      parts.push(`UK ${str(e.uniquekey)}`);
    }
    return parts;
  };
  const title = `${str(object.schema)}.${str(object.name)}`;
  const blocks: Block[] = [doc.heading(1, title), ...curated(object)];
  if (object.description) blocks.push(doc.paragraph(str(object.description)));
  blocks.push(
    doc.paragraph(
      `${str(object.kind)} in metadata source ${str(source?.name)}`,
      object.rowestimate !== null
        ? `, about ${str(object.rowestimate)} rows`
        : rowEstimate(object) && `, ${rowEstimate(object)}`,
    ),
  );
  blocks.push(doc.heading(2, "Columns"));
  blocks.push({
    kind: "table",
    header: ["#", "Name", "Type", "Nullable", "Default", "Keys", "Description"],
    rows: elements.map((e) => [
      str(e.position),
      str(e.name),
      str(e.datatype),
      e.nullable ? "yes" : "no",
      str(e.defaultvalue),
      keys(e),
      str(e.description),
    ]),
  });
  blocks.push(...indexBlocks(object));
  const targets = new Map<string, Row>();
  for (const e of elements) {
    const t = e.foreignkey ? fkTarget(e.foreignkey) : undefined;
    if (t) targets.set(ids.object(t), t);
  }
  if (targets.size > 0 || referrers.length > 0) {
    blocks.push(doc.heading(2, "Relationships"));
    const lines = [`erDiagram`];
    for (const e of elements) {
      const t = e.foreignkey ? fkTarget(e.foreignkey) : undefined;
      if (t)
        lines.push(
          `  ${entityName(object)} }o--|| ${entityName(t)} : "${mermaidLabel(str(e.name))}"`,
        );
    }
    for (const r of referrers)
      lines.push(`  ${entityName(r)} }o--|| ${entityName(object)} : "references"`);
    blocks.push({ kind: "diagram", mermaid: [...new Set(lines)].join("\n") });
    const linked = [...targets.values(), ...referrers].sort((a, b) =>
      compare(ids.object(a), ids.object(b)),
    );
    blocks.push({
      kind: "list",
      items: linked.map((o) => [doc.link(ids.object(o), `${str(o.schema)}.${str(o.name)}`)]),
    });
  }
  blocks.push(...lineageBlocks(ids, object, lineage));
  blocks.push(...profileBlocks(elements, profiles));
  return { id: ids.object(object), title, blocks };
}

/** A table's indexes (one line each, as the import stores them) and a view's definition. */
function indexBlocks(object: Row): Block[] {
  const blocks: Block[] = [];
  const indexes = str(object.indexes);
  if (indexes !== "")
    blocks.push(doc.heading(2, "Indexes"), {
      kind: "table",
      header: ["Index"],
      rows: indexes.split("\n").map((line) => [line]),
    });
  const definition = str(object.definition);
  if (definition !== "")
    blocks.push(doc.heading(2, "Definition"), { kind: "code", language: "sql", text: definition });
  return blocks;
}

const percent = (share: number) => `${Math.round(share * 100)} %`;

/** The share of nulls as a bar of ten blocks and its percentage. */
function nullBar(share: number | null): string {
  if (share === null) return "";
  const full = Math.round(share * 10);
  return `${"\u2588".repeat(full)}${"\u2591".repeat(10 - full)} ${percent(share)}`;
}

const METHODS: Record<StoredProfile["method"], string> = {
  statistics: "statistics",
  sample: "sample",
  sensitive: "sensitive: values not read",
  none: "not analysed",
};

/** The object's column profiles, in the order of its columns, with when they were taken. */
function profileBlocks(elements: Row[], profiles: Map<string, StoredProfile>): Block[] {
  const rows = elements.flatMap((e) => {
    const p = profiles.get(str(e.name));
    return p ? [p] : [];
  });
  if (rows.length === 0) return [];
  const taken = rows[0].takenAt.toISOString().slice(0, 16).replace("T", " ");
  return [
    doc.heading(2, "Profile"),
    doc.paragraph(`Taken by the import of ${taken} UTC.`),
    {
      kind: "table",
      header: [
        "Column",
        "From",
        "Rows",
        "Nulls",
        "Distinct",
        "Min",
        "Max",
        "Avg length",
        "Most common",
      ],
      rows: rows.map((p) => [
        p.column,
        METHODS[p.method],
        p.rowCount === null ? "" : String(p.rowCount),
        nullBar(p.nullShare),
        p.distinctCount === null ? "" : String(p.distinctCount),
        str(p.minValue),
        str(p.maxValue),
        p.avgLength === null ? "" : p.avgLength.toFixed(1),
        (p.topValues ?? []).map((t) => `${t.value} (${percent(t.share)})`).join(", "),
      ]),
    },
  ];
}

/** What a view reads (upstream) and which views read an object (downstream), with their columns. */
interface ObjectLineage {
  upstream: Row[];
  downstream: Row[];
  objects: Map<number, Row>;
}

function lineageBlocks(ids: PageIds, object: Row, lineage: ObjectLineage): Block[] {
  const { upstream, downstream, objects } = lineage;
  const how = str(object.lineage);
  if (how === "" && upstream.length === 0 && downstream.length === 0) return [];
  const objectOf = (key: unknown) => (key === null ? undefined : objects.get(Number(key)));
  const linkTo = (key: unknown, fallback: string): Cell => {
    const target = objectOf(key);
    return target
      ? [doc.link(ids.object(target), `${str(target.schema)}.${str(target.name)}`)]
      : fallback;
  };
  const blocks: Block[] = [doc.heading(2, "Lineage")];
  if (how !== "") blocks.push(doc.paragraph(`What it reads: ${how}.`));
  if (upstream.length > 0 || downstream.length > 0) {
    // Drawn as the relationships are: each view to what it reads.
    const entity = (key: unknown, fallback: string) => {
      const target = objectOf(key);
      return target ? entityName(target) : mermaidEntity(slug(fallback));
    };
    const lines = [
      "erDiagram",
      ...upstream.map(
        (l) => `  ${entityName(object)} }o--|| ${entity(l.readsobject, str(l.reads))} : "reads"`,
      ),
      ...downstream.map((l) => `  ${entity(l.view, "")} }o--|| ${entityName(object)} : "reads"`),
    ];
    blocks.push({ kind: "diagram", mermaid: [...new Set(lines)].join("\n") });
    blocks.push({
      kind: "table",
      header: ["Direction", "Object", "Columns"],
      rows: [
        ...upstream.map((l) => [
          "upstream: reads",
          linkTo(l.readsobject, str(l.reads)),
          str(l.columns),
        ]),
        ...downstream.map((l) => {
          const view = objectOf(l.view);
          return [
            "downstream: read by",
            linkTo(l.view, `${str(view?.schema)}.${str(view?.name)}`),
            str(l.columns),
          ];
        }),
      ],
    });
  }
  return blocks;
}

/** Every page of the published dictionary, in a stable order: same snapshot, same pages. */
export function buildPages(s: DictionarySnapshot): PageDoc[] {
  const group = (rows: Row[], by: string) => {
    const map = new Map<number, Row[]>();
    for (const r of rows) {
      const key = Number(r[by]);
      const list = map.get(key);
      if (list) list.push(r);
      else map.set(key, [r]);
    }
    return map;
  };
  const objectsBySource = group(s.objects, "metadatasource");
  const elementsByObject = group(s.elements, "dataobject");
  const sourceByKey = new Map(s.sources.map((src) => [src.key, src]));
  const ids = buildPageIds(s);
  const objectByKey = new Map(s.objects.map((o) => [o.key, o]));
  // Lineage whose view is published, by view (upstream) and by the object read (downstream).
  const shownLineage = s.lineage.filter((l) => objectByKey.has(Number(l.view)));
  const upstreamOf = group(shownLineage, "view");
  const downstreamOf = group(
    shownLineage.filter((l) => l.readsobject !== null),
    "readsobject",
  );
  const byReads = (a: Row, b: Row) => compare(str(a.reads), str(b.reads)) || a.key - b.key;
  // Profiles by source and object, then by column.
  const profilesOf = new Map<string, Map<string, StoredProfile>>();
  for (const p of s.profiles) {
    const key = `${p.sourceId}|${p.schema}.${p.object}`;
    const columns = profilesOf.get(key) ?? new Map<string, StoredProfile>();
    columns.set(p.column, p);
    profilesOf.set(key, columns);
  }
  const noProfiles = new Map<string, StoredProfile>();

  const pages: PageDoc[] = [
    homePage(s, ids),
    ...[...s.applications].sort(byName).map((a) => applicationPage(s, ids, a, objectsBySource)),
  ];
  for (const [sourceKey, objects] of objectsBySource) {
    const byQualified = new Map(objects.map((o) => [`${str(o.schema)}.${str(o.name)}`, o]));
    // Who refers to whom, from the foreign keys of this source's columns.
    const referrers = new Map<number, Map<number, Row>>();
    for (const o of objects) {
      for (const e of elementsByObject.get(o.key) ?? []) {
        const target = e.foreignkey ? referredObject(byQualified, e.foreignkey) : undefined;
        if (!target || target.key === o.key) continue;
        const set = referrers.get(target.key) ?? new Map<number, Row>();
        set.set(o.key, o);
        referrers.set(target.key, set);
      }
    }
    for (const object of objects) {
      const elements = [...(elementsByObject.get(object.key) ?? [])].sort(
        (a, b) => Number(a.position) - Number(b.position),
      );
      const referring = [...(referrers.get(object.key)?.values() ?? [])].sort((a, b) =>
        compare(ids.object(a), ids.object(b)),
      );
      const lineage: ObjectLineage = {
        upstream: [...(upstreamOf.get(object.key) ?? [])].sort(byReads),
        downstream: [...(downstreamOf.get(object.key) ?? [])].sort((a, b) =>
          compare(
            ids.object(objectByKey.get(Number(a.view)) as Row),
            ids.object(objectByKey.get(Number(b.view)) as Row),
          ),
        ),
        objects: objectByKey,
      };
      pages.push(
        objectPage(
          ids,
          object,
          elements,
          byQualified,
          referring,
          sourceByKey.get(sourceKey),
          lineage,
          profilesOf.get(`${sourceKey}|${str(object.schema)}.${str(object.name)}`) ?? noProfiles,
        ),
      );
    }
  }
  return pages.sort((a, b) => (a.id === HOME ? -1 : b.id === HOME ? 1 : compare(a.id, b.id)));
}
