import { randomBytes } from "node:crypto";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { FROM_PAGE, post, signedIn } from "./support/api.ts";
import { chooseContext, mainNav, signIn } from "./support/app.ts";
import { expectAccessible } from "./support/axe.ts";
import {
  createSourceDatabase,
  makeDictionaryFixture,
  uniqueName,
  writeConnectionFile,
} from "./support/dictionary.ts";
import { shot } from "./support/screenshots.ts";
import { admin, DICTIONARY, plain } from "./support/users.ts";

// A schema no other run uses, so the explorer's filter finds this run's objects alone.
const schema = `shop_${randomBytes(3).toString("hex")}`;

const SOURCE = [
  `create schema ${schema}`,
  `create table ${schema}.customer (id int primary key, name text not null, email text, nick text)`,
  `alter table ${schema}.customer add constraint customer_nick_key unique (nick)`,
  `create table ${schema}.orders (id int primary key, customer_id int references ${schema}.customer (id), total numeric(10,2))`,
  `create view ${schema}.customer_orders as select c.name, o.total from ${schema}.customer c join ${schema}.orders o on o.customer_id = c.id`,
  `create view ${schema}.big_customers as select name from ${schema}.customer_orders where total > 100`,
  `insert into ${schema}.customer values (1, 'Ann', 'a@example.test', null), (2, 'Ann', null, 'b'), (3, 'Bob', null, null), (4, 'Cy', 'c@example.test', 'ccc')`,
  `insert into ${schema}.orders values (1, 1, 10), (2, 1, 200), (3, 3, 50)`,
  `analyze ${schema}.customer`,
  `analyze ${schema}.orders`,
];

type Pending = {
  entityKeyID: number;
  requested: { attrValues: Record<string, { value: unknown }> };
  pending?: { entityEventID: number }[];
};

/**
 * Another editor approves what the import proposed in this run's schema (the pending screens have
 * their own tests; one does not approve one's own changes).
 */
async function approveImport(): Promise<void> {
  const approver = await signedIn(plain.username, plain.password);
  const pendingOf = async (entityType: string, keep: (r: Pending) => boolean) => {
    const list = await post<{ data: Pending[] }>(approver, "/api/entity", {
      context: DICTIONARY.name,
      entityType,
      requirePending: true,
      includeDeleted: true,
      pageSize: 0,
    });
    return list.data.filter(keep);
  };
  const objects = await pendingOf(
    "dataobject",
    (r) => r.requested.attrValues.schema?.value === schema,
  );
  const keys = new Set(objects.map((o) => o.entityKeyID));
  const elements = await pendingOf("dataelement", (r) =>
    keys.has(Number(r.requested.attrValues.dataobject?.value)),
  );
  const lineage = await pendingOf("lineage", (r) =>
    keys.has(Number(r.requested.attrValues.view?.value)),
  );
  for (const [entityType, records] of [
    ["dataobject", objects],
    ["dataelement", elements],
    ["lineage", lineage],
  ] as const) {
    const ids = records.flatMap((r) => (r.pending ?? []).map((p) => p.entityEventID));
    expect(ids.length, entityType).toBeGreaterThan(0);
    await post(approver, "/api/approve", {
      context: DICTIONARY.name,
      entityType,
      entityEventIds: ids,
    });
  }
  await approver.dispose();
}

const rows = (page: Page): Locator => page.getByTestId("record-row");
const details = (page: Page): Locator => page.getByTestId("object-details");

test("a person reads a table's column profiles and follows its lineage to the views", async ({
  page,
}) => {
  // An import, an approval and three screens, on a machine other suites share.
  test.setTimeout(180_000);
  const database = await createSourceDatabase(SOURCE);
  test.skip(database === null, "no PostgreSQL server to import from");
  if (!database) return;
  try {
    const file = `${uniqueName("pg")}.conf`;
    writeConnectionFile(file, database.name);
    await signIn(page, admin);
    await chooseContext(page, DICTIONARY.uiName);
    const fixture = await makeDictionaryFixture(page.request, {
      source: true,
      connectionFile: file,
    });
    const profiling = await page.request.post("/api/save", {
      headers: FROM_PAGE,
      data: {
        context: DICTIONARY.name,
        entityType: "metadatasource",
        record: {
          entityKeyID: fixture.sourceId,
          profilecolumns: true,
          sensitivecolumns: "*email*",
        },
      },
    });
    expect(profiling.ok(), await profiling.text()).toBe(true);

    // The import, as the metadata sources' list offers it.
    await mainNav(page).getByRole("link", { name: "System environments", exact: true }).click();
    const source = page.getByTestId("metadata-source-row").filter({ hasText: fixture.source });
    await source.getByTestId("import-source").click();
    await expect(page.getByTestId("toast").filter({ hasText: "metadata imported" })).toContainText(
      "columns profiled",
    );
    await approveImport();

    // The explorer's data objects, filtered to this source's schema.
    await page.getByTestId("nav-explorer").click();
    await page.getByTestId("type-sidenav").getByRole("button", { name: "Data object" }).click();
    await expect(page.getByTestId("explorer-title")).toHaveText("Data object");
    await page.getByTestId("filter-toggle").click();
    const panel = page.getByTestId("filter-panel");
    await panel.getByTestId("add-filter").click();
    await panel.getByRole("button", { name: "Schema", exact: true }).click();
    const filter = panel.getByTestId("filter-row").last();
    await filter.getByLabel("Schema operator").selectOption("=");
    await filter.getByLabel("Schema value").fill(schema);
    await expect(rows(page)).toHaveCount(4);
    await page.getByTestId("filter-toggle").click();

    // A table: each column's profile, and the view that reads it.
    await rows(page)
      .filter({ has: page.getByRole("cell", { name: "customer", exact: true }) })
      .click();
    await expect(details(page).getByRole("heading", { level: 2 })).toHaveText(
      `Details of ${schema}.customer`,
    );
    await expect(details(page).getByTestId("profiled-at")).toContainText(
      /Profiled \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    );
    const profiles = details(page).getByRole("table", { name: "Column profiles" });
    const column = (name: string) =>
      profiles.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
    await expect(profiles.getByRole("columnheader", { name: "Nulls" })).toBeVisible();
    await expect(column("name")).toContainText("0 % null");
    await expect(column("name")).toContainText("Ann (50 %)");
    // Minimum and maximum, the most common value 'Ann' being the least.
    await expect(column("name").getByRole("cell")).toContainText(["Ann", "Cy"]);
    await expect(column("nick")).toContainText("50 % null");
    await expect(column("email")).toContainText("sensitive: values not read");
    await expect(column("email")).not.toContainText("example.test");
    // Its indexes, one line each, as the import read them.
    await expect(details(page).getByTestId("object-indexes").getByRole("listitem")).toHaveText([
      "customer_nick_key UNIQUE (nick)",
      "customer_pkey PRIMARY KEY (id)",
    ]);
    const downstream = details(page).getByRole("region", { name: "Downstream" });
    await expect(downstream.getByRole("link")).toHaveText([`${schema}.customer_orders`]);
    await expect(
      details(page).getByRole("img", { name: new RegExp(`is read by ${schema}.customer_orders`) }),
    ).toBeVisible();
    await shot(page, "dictionary-details-table", true);
    await expectAccessible(page, "a data object's details");

    // Its downstream view: what it reads (upstream, with links) and what reads it.
    await downstream.getByRole("link", { name: `${schema}.customer_orders` }).click();
    await expect(page).toHaveURL(/\/explorer\?context=Data\+Dictionary&type=dataobject&record=\d+/);
    await expect(page.locator('[data-testid="record-row"][aria-selected="true"]')).toContainText(
      "customer_orders",
    );
    await expect(details(page).getByRole("heading", { level: 2 })).toHaveText(
      `Details of ${schema}.customer_orders`,
    );
    await expect(details(page).getByTestId("profiles-none")).toBeVisible();
    // A view's definition, its tables named with their schema.
    await expect(details(page).getByTestId("object-definition")).toContainText(
      `FROM ${schema}.customer c`,
    );
    await expect(details(page).getByTestId("lineage-how")).toContainText("What it reads:");
    const upstream = details(page).getByRole("region", { name: "Upstream" });
    await expect(upstream.getByRole("link")).toHaveText([`${schema}.customer`, `${schema}.orders`]);
    await expect(upstream).toContainText("(id, name)");
    await expect(details(page).getByRole("region", { name: "Downstream" })).toContainText(
      `${schema}.big_customers`,
    );
    await expect(details(page).getByTestId("lineage-diagram")).toBeVisible();
    await shot(page, "dictionary-details-view", true);

    // And back up to the table it reads.
    await upstream.getByRole("link", { name: `${schema}.orders` }).click();
    await expect(details(page).getByRole("heading", { level: 2 })).toHaveText(
      `Details of ${schema}.orders`,
    );
    await expect(
      details(page).getByRole("table", { name: "Column profiles" }).getByRole("row"),
    ).toHaveCount(4);
  } finally {
    await database.drop();
  }
});
