// `npm run bench -- hierarchy`: a tree of BENCH_TREE_ROWS (1,000,000) records, 10 levels deep, its
// fan-out skewed (a node of 50,000 children, one of about 100,000 descendants, the bulk of the
// records under 2,880 nodes of about 293 children each), on PostgreSQL (issue 48):
//   (a) 'Descendants of' the node of ~100,000 descendants: page 1 with its exact count, p99;
//   (b) opening the node of 50,000 children (/api/tree-children, page 1 of 100), p99;
//   (c) the cycle check's cost on an upload re-parenting 100,000 records: the same file uploaded
//       into the tree and into a twin type whose self-reference is no parent (no check), timed.
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type {
  EntityList,
  EntityQuery,
  TreeChildren,
  TreeChildrenRequest,
} from "@ledgerline/contract";
import ExcelJS from "exceljs";
import { type Kysely, sql } from "kysely";
import { login } from "./support/app.ts";
import { envNumber, envSize } from "./support/env.ts";
import { load } from "./support/load.ts";
import { loadNote, table, writeResult } from "./support/results.ts";
import { settleLoad } from "./support/seed.ts";
import { announceBench, postJson, withBenchApp, withTempDir } from "./support/workload.ts";

const execFileAsync = promisify(execFile);
const UPLOAD_CLIENT = fileURLToPath(new URL("./support/upload-entry.mjs", import.meta.url));

const CONTEXT = "Tree";
const SCHEMA = "ctx_tree";
/** The tree, and its twin without a parent: the same rows, a plain reference to its own type. */
const TREE = "node";
const TWIN = "flat";

const typeYaml = (name: string, parentLine: string) => `  - name: ${name}
    uiName: ${name === TREE ? "Node" : "Flat"}
    label: "{code}"
    approval: { upload: false, web: false }
${name === TREE ? "    maxDepth: 12\n" : ""}    attributes:
      - { name: code, uiName: Code, dataType: String, identity: true, searchable: false }
      - { name: name, uiName: Name, dataType: String, searchable: false }
${parentLine}
`;

const layoutYaml = (name: string, parent: string) => `  - name: ${name}s
    uiName: ${name}s
    entityType: ${name}
    sheet: Nodes
    columns:
      - { header: Code, attribute: code }
      - { header: Parent, attribute: ${parent} }
    approveEverything: true
`;

const MODEL_YAML = `# Written by bench/hierarchy.ts.
name: ${CONTEXT}
uiName: Tree
entityTypes:
${typeYaml(TREE, `      - { name: parent, uiName: Parent, dataType: Reference, referencedEntityType: ${TREE}, nullable: true, filter: true, parent: true }`)}
${typeYaml(TWIN, `      - { name: up, uiName: Parent, dataType: Reference, referencedEntityType: ${TWIN}, nullable: true, filter: true }`)}
fileLayouts:
${layoutYaml(TREE, "parent")}
${layoutYaml(TWIN, "up")}
roles:
  - name: steward
    uiname: Steward
    grants: { "*": [read, create, edit, delete, approve] }
`;

/** Where the measured nodes are, by key, and the level the bulk's leaves hang from. */
interface Shape {
  rows: number;
  hub: number;
  branch: number;
  branchDescendants: number;
  /** The bulk's last inner level: the parents of its leaves. */
  leafParents: number[];
}

/**
 * Inserts the children of every node of `parents`, `fanout` each (codes N<key>), set-based, and
 * answers the new keys in order.
 */
async function addLevel(
  db: Kysely<unknown>,
  parents: readonly number[],
  fanout: number,
  /** Where the children's numbers start past: a parent given children twice. */
  offset = 0,
) {
  const { rows } = await sql<{ k: string }>`
    with ins as (
      insert into ${sql.table(`${SCHEMA}.${TREE}`)} (code, name, parent, created_by, updated_by)
      select 'P' || p.k || '-' || (i + ${offset}), 'Node', p.k, 'bench', 'bench'
      from unnest(${parents}::bigint[]) with ordinality as p(k, o), generate_series(1, ${fanout}) as i
      order by p.o, i
      returning entity_key_id)
    select entity_key_id::text as k from ins order by entity_key_id`.execute(db);
  return rows.map((r) => Number(r.k));
}

/**
 * The tree: a root; under it a hub of 50,000 leaves, a branch of 10 x 10 x 10 x 10 x 9 (101,110
 * descendants), a bulk of 2 x 2 x 3 x 3 x 4 x 4 x 5 x F over 10 levels, and leaves straight under the
 * root for the rest. Then the twin type gets the same rows, keys and all.
 */
async function seedTree(db: Kysely<unknown>, target: number): Promise<Shape> {
  const table = `${SCHEMA}.${TREE}`;
  const [root] = await addRoot(db);
  const [hub, branch, bulk] = await addLevel(db, [root], 3);
  await addLevel(db, [hub], 50_000);
  let level = [branch];
  let branchDescendants = 0;
  for (const fanout of [10, 10, 10, 10, 9]) {
    level = await addLevel(db, level, fanout);
    branchDescendants += level.length;
  }
  level = [bulk];
  for (const fanout of [2, 2, 3, 3, 4, 4, 5]) level = await addLevel(db, level, fanout);
  const leafParents = level;
  const counted = async () =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]
        .n,
    );
  const fanout = Math.floor((target - (await counted())) / leafParents.length);
  await addLevel(db, leafParents, Math.max(fanout, 1));
  const rest = target - (await counted());
  if (rest > 0) await addLevel(db, [root], rest, 3);
  await sql`insert into ${sql.table(`${SCHEMA}.${TWIN}`)} (entity_key_id, code, name, up, created_by, updated_by)
    overriding system value select entity_key_id, code, name, parent, created_by, updated_by from ${sql.table(table)}`.execute(
    db,
  );
  await sql`select setval(pg_get_serial_sequence(${`${SCHEMA}.${TWIN}`}, 'entity_key_id'), (select max(entity_key_id) from ${sql.table(`${SCHEMA}.${TWIN}`)}))`.execute(
    db,
  );
  const rows = await counted();
  for (const type of [TREE, TWIN])
    await sql`insert into app.type_counts (context, entity_type, row_count) values (${CONTEXT}, ${type}, ${rows})
      on conflict (context, entity_type) do update set row_count = excluded.row_count`.execute(db);
  await settleLoad(db, [table, `${SCHEMA}.${TWIN}`]);
  return { rows, hub, branch, branchDescendants, leafParents };
}

async function addRoot(db: Kysely<unknown>): Promise<number[]> {
  const { rows } = await sql<{ k: string }>`insert into ${sql.table(`${SCHEMA}.${TREE}`)}
    (code, name, parent, created_by, updated_by) values ('ROOT', 'Root', null, 'bench', 'bench')
    returning entity_key_id::text as k`.execute(db);
  return rows.map((r) => Number(r.k));
}

/** The first `n` leaves of the bulk, each with its parent and the next leaf parent (a move). */
async function movesOf(db: Kysely<unknown>, shape: Shape, n: number) {
  const { rows } = await sql<{ code: string; from: string; to: string }>`
    with parents as (select k, o from unnest(${shape.leafParents}::bigint[]) with ordinality as p(k, o)),
      leaves as (select c.code, c.parent, p.o from ${sql.table(`${SCHEMA}.${TREE}`)} c
        join parents p on p.k = c.parent order by c.entity_key_id limit ${n})
    select l.code, f.code as from, t.code as to
    from leaves l join ${sql.table(`${SCHEMA}.${TREE}`)} f on f.entity_key_id = l.parent
      join parents np on np.o = l.o % ${shape.leafParents.length} + 1
      join ${sql.table(`${SCHEMA}.${TREE}`)} t on t.entity_key_id = np.k`.execute(db);
  return rows;
}

async function writeWorkbook(file: string, rows: readonly [string, string][]): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file });
  const sheet = workbook.addWorksheet("Nodes");
  sheet.addRow(["Code", "Parent"]).commit();
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
}

async function timedUpload(baseUrl: string, cookie: string, layout: string, file: string) {
  const started = performance.now();
  const { stdout } = await execFileAsync(
    process.execPath,
    [
      UPLOAD_CLIENT,
      `${baseUrl}/api/upload`,
      cookie,
      file,
      JSON.stringify({ context: CONTEXT, layout }),
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const seconds = (performance.now() - started) / 1000;
  const { status, text } = JSON.parse(stdout) as { status: number; text: string };
  if (status !== 200) throw new Error(`upload into ${layout}: ${status} ${text.slice(0, 500)}`);
  return seconds;
}

export async function benchHierarchy(): Promise<void> {
  const target = envSize("BENCH_TREE_ROWS", 1_000_000);
  const moved = envSize("BENCH_TREE_MOVES", 100_000);
  const seconds = envNumber("BENCH_SECONDS", 5);
  const rounds = envNumber("BENCH_TREE_ROUNDS", 2);
  await announceBench("hierarchy");
  const figures = await withBenchApp("hierarchy", { "tree.yaml": MODEL_YAML }, async (s) => {
    const db = s.bench.database.db as unknown as Kysely<unknown>;
    const started = performance.now();
    const shape = await seedTree(db, target);
    console.log(
      `seeded ${shape.rows.toLocaleString("en")} records in ${((performance.now() - started) / 1000).toFixed(0)} s; branch of ${shape.branchDescendants.toLocaleString("en")} descendants, hub of 50,000 children`,
    );
    const cookie = await login(s.app.url);

    const list: EntityQuery = {
      context: CONTEXT,
      entityType: TREE,
      rowConstraints: [{ attribute: "parent", operator: "Descendants", values: [shape.branch] }],
      pageSize: 20,
      pageNum: 1,
      exactCount: true,
    };
    const listUrl = `${s.app.url}/api/entity`;
    const answer = await postJson<EntityList>(listUrl, list, cookie);
    if (answer.querySize !== shape.branchDescendants || answer.data.length !== 20)
      throw new Error(
        `Descendants answered ${answer.querySize} rows, not ${shape.branchDescendants}`,
      );
    await load({ url: listUrl, body: list, cookie, connections: 1, seconds: 1, maxRequests: 50 });
    const descendants = await load({
      url: listUrl,
      body: list,
      cookie,
      connections: 1,
      seconds,
      maxRequests: 500,
    });

    const open: TreeChildrenRequest = {
      context: CONTEXT,
      entityType: TREE,
      parentKeyID: shape.hub,
      pageSize: 100,
    };
    const openUrl = `${s.app.url}/api/tree-children`;
    const opened = await postJson<TreeChildren>(openUrl, open, cookie);
    if (opened.total !== 50_000 || opened.nodes.length !== 100)
      throw new Error(`the hub answered ${opened.total} children`);
    await load({ url: openUrl, body: open, cookie, connections: 1, seconds: 1, maxRequests: 50 });
    const children = await load({
      url: openUrl,
      body: open,
      cookie,
      connections: 1,
      seconds,
      maxRequests: 1_000,
    });

    const moves = await movesOf(db, shape, moved);
    const timings = await withTempDir("tree", async (dir) => {
      const away = path.join(dir, "away.xlsx");
      const back = path.join(dir, "back.xlsx");
      await writeWorkbook(
        away,
        moves.map((m) => [m.code, m.to]),
      );
      await writeWorkbook(
        back,
        moves.map((m) => [m.code, m.from]),
      );
      const times = { tree: [] as number[], twin: [] as number[] };
      // ABBA: each type goes first as often as second, as the tables and their history grow.
      for (let round = 0; round < rounds; round++) {
        for (const [i, file] of [away, back].entries()) {
          const order = (round + i) % 2 === 0 ? [TWIN, TREE] : [TREE, TWIN];
          for (const type of order)
            times[type === TREE ? "tree" : "twin"].push(
              await timedUpload(s.app.url, cookie, `${type}s`, file),
            );
        }
        console.log(
          `round ${round + 1}: tree ${times.tree
            .slice(-2)
            .map((t) => t.toFixed(2))
            .join(", ")} s; twin ${times.twin
            .slice(-2)
            .map((t) => t.toFixed(2))
            .join(", ")} s`,
        );
      }
      return times;
    });
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return {
      rows: shape.rows,
      moved: moves.length,
      descendants,
      children,
      treeUpload: mean(timings.tree),
      twinUpload: mean(timings.twin),
      branchDescendants: shape.branchDescendants,
    };
  });
  const overhead = (figures.treeUpload / figures.twinUpload - 1) * 100;
  console.log(`\nFinished with ${loadNote()}.\n`);
  console.log(
    table([
      ["measure", "p50 ms", "p99 ms", "req/s"],
      [
        `Descendants (${figures.branchDescendants.toLocaleString("en")}), page 1 + count`,
        figures.descendants.p50,
        figures.descendants.p99,
        Math.round(figures.descendants.rps),
      ],
      [
        "open a node of 50,000 children",
        figures.children.p50,
        figures.children.p99,
        Math.round(figures.children.rps),
      ],
    ]),
  );
  console.log(
    `\nupload re-parenting ${figures.moved.toLocaleString("en")} records: tree ${figures.treeUpload.toFixed(2)} s, twin without the check ${figures.twinUpload.toFixed(2)} s: ${overhead.toFixed(1)} %`,
  );
  const file = await writeResult("hierarchy", {
    rows: figures.rows,
    descendants: figures.branchDescendants,
    descendants_page_count_p50_ms: figures.descendants.p50,
    descendants_page_count_p99_ms: figures.descendants.p99,
    open_50000_children_p50_ms: figures.children.p50,
    open_50000_children_p99_ms: figures.children.p99,
    moved: figures.moved,
    upload_tree_s: figures.treeUpload,
    upload_twin_s: figures.twinUpload,
    cycle_check_overhead_percent: overhead,
  });
  console.log(`Figures: ${file}`);
}
