import { describe, expect, it } from "vitest";
import * as ddl from "./ddl.ts";

describe("DDL builders", () => {
  it("quote every identifier, doubling embedded quotes", () => {
    expect(ddl.quoteIdent('we"ird')).toBe('"we""ird"');
    expect(ddl.qualified("ctx_a", "t")).toBe('"ctx_a"."t"');
  });

  it("keep object names within 63 characters, stable and distinct", () => {
    const long = ddl.objectName("a".repeat(40), "b".repeat(40), "idx");
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).toBe(ddl.objectName("a".repeat(40), "b".repeat(40), "idx"));
    expect(long).not.toBe(ddl.objectName("a".repeat(40), "b".repeat(40), "trgm"));
    expect(ddl.objectName("country", "name", "idx")).toBe("country__name__idx");
  });

  it("create a table with the system columns first", () => {
    expect(
      ddl.createTableSql("ctx_shop", "product", [
        { name: "code", sqlType: "text", notNull: true },
        { name: "price", sqlType: "numeric", notNull: false },
      ]),
    ).toMatchInlineSnapshot(`
      "create table "ctx_shop"."product" (
        entity_key_id bigint generated always as identity primary key,
        is_deleted boolean not null default false,
        is_pending_new boolean not null default false,
        version integer not null default 1,
        created_at timestamptz not null default now(),
        created_by text not null,
        updated_at timestamptz not null default now(),
        updated_by text not null,
        last_event_id bigint,
        tree_path bigint[],
        "code" text not null,
        "price" numeric
      ) with (fillfactor = 90)"
    `);
  });

  it("make each kind of index", () => {
    expect(ddl.createIndexSql("s", "t", "t__identity", "unique", ["a", "b"])).toBe(
      'create unique index "t__identity" on "s"."t" ("a", "b")',
    );
    expect(ddl.createIndexSql("s", "t", "i", "btree", ["a"])).toBe(
      'create index "i" on "s"."t" ("a")',
    );
    expect(ddl.createIndexSql("s", "t", "i", "pattern", ["a"])).toBe(
      'create index "i" on "s"."t" (lower("a") text_pattern_ops)',
    );
    expect(ddl.createIndexSql("s", "t", "i", "prefix", ["a"])).toBe(
      'create index "i" on "s"."t" (lower("a") text_pattern_ops) include ("a", entity_key_id, is_deleted, is_pending_new)',
    );
    expect(ddl.createIndexSql("s", "t", "i", "trigram", ["a"])).toBe(
      'create index "i" on "s"."t" using gin ("a" gin_trgm_ops)',
    );
  });

  it("alter, drop and reference columns", () => {
    expect(ddl.addColumnSql("s", "t", { name: "c", sqlType: "date", notNull: false })).toBe(
      'alter table "s"."t" add column "c" date',
    );
    expect(ddl.dropColumnSql("s", "t", "c")).toBe('alter table "s"."t" drop column "c"');
    expect(ddl.alterColumnTypeSql("s", "t", "c", "numeric")).toBe(
      'alter table "s"."t" alter column "c" type numeric using "c"::numeric',
    );
    expect(ddl.addForeignKeySql("s", "t", "t__c__fkey", "c", "u")).toBe(
      'alter table "s"."t" add constraint "t__c__fkey" foreign key ("c") references "s"."u" (entity_key_id)',
    );
  });

  it("build the read view with typed formula columns and a fingerprint", () => {
    const select = ddl.viewSelectSql("s", "country", [
      { name: "display", formula: "name || iso2", sqlType: "text" },
    ]);
    expect(select).toBe('select t.*,\n  ((name || iso2))::text as "display"\nfrom "s"."country" t');
    expect(ddl.viewFingerprint(select)).toMatch(/^ledgerline:[0-9a-f]{16}$/);
    expect(ddl.commentOnViewSql("s", "v", "it's")).toBe(`comment on view "s"."v" is 'it''s'`);
  });
});
