import { describe, expect, it } from "vitest";
import { indexesText, indexLine } from "../catalog.ts";
import { defaultOf, type IndexPart, indexesOf } from "./catalog.ts";

const column = (column_default: string | null, extra = "", generation_expression = null) => ({
  column_default,
  extra,
  generation_expression,
});

// MariaDB's forms are those of 10.11 (the tests import a real server); MySQL 8's are its
// documentation's: a literal bare, an expression marked DEFAULT_GENERATED, no default as null.
describe("a column's default as the dictionary shows it", () => {
  it("from MariaDB: quoted literals and expressions as the server gives them, 'NULL' as none", () => {
    expect(defaultOf(column("'new'"), "mariadb")).toBe("'new'");
    expect(defaultOf(column("NULL"), "mariadb")).toBeNull();
    expect(defaultOf(column(null), "mariadb")).toBeNull();
    expect(
      defaultOf(column("current_timestamp()", "on update current_timestamp()"), "mariadb"),
    ).toBe("current_timestamp() on update current_timestamp()");
  });

  it("from MySQL 8: bare literals quoted as MariaDB and PostgreSQL show them", () => {
    expect(defaultOf(column("new"), "mysql")).toBe("'new'");
    expect(defaultOf(column("it's"), "mysql")).toBe("'it''s'");
    expect(defaultOf(column("0.00"), "mysql")).toBe("0.00");
    expect(defaultOf(column("CURRENT_TIMESTAMP", "DEFAULT_GENERATED"), "mysql")).toBe(
      "CURRENT_TIMESTAMP",
    );
    expect(
      defaultOf(
        column("CURRENT_TIMESTAMP", "DEFAULT_GENERATED on update CURRENT_TIMESTAMP"),
        "mysql",
      ),
    ).toBe("CURRENT_TIMESTAMP on update CURRENT_TIMESTAMP");
    expect(defaultOf(column(null), "mysql")).toBeNull();
  });

  it("names how a column is generated or numbered, whichever server", () => {
    for (const flavour of ["mariadb", "mysql"] as const) {
      expect(defaultOf(column(null, "auto_increment"), flavour)).toBe("auto_increment");
      expect(defaultOf(column(null, "VIRTUAL GENERATED", "`a` * 2" as never), flavour)).toBe(
        "generated always as (`a` * 2) virtual",
      );
      expect(defaultOf(column(null, "STORED GENERATED", "`a` + 1" as never), flavour)).toBe(
        "generated always as (`a` + 1) stored",
      );
    }
  });
});

const part = (
  name: string,
  seq: number,
  column: string | null,
  more: Partial<IndexPart> = {},
): IndexPart => ({
  schema: "shop",
  object: "customer",
  name,
  non_unique: 1,
  seq_in_index: seq,
  column,
  sub_part: null,
  sort_order: "A",
  index_type: "BTREE",
  expression: null,
  invisible: 0,
  ignored: 0,
  ...more,
});

// MySQL 8's rows are its documentation's (no MySQL server here): a functional key part has no
// COLUMN_NAME and its EXPRESSION; an invisible index IS_VISIBLE 'NO'.
describe("indexes and unique keys from information_schema.statistics", () => {
  it("keeps the key parts in SEQ_IN_INDEX order, with prefixes and DESC", () => {
    const { indexes, uniqueKeys } = indexesOf([
      part("name_idx", 2, "first", { sort_order: "D" }),
      part("name_idx", 1, "last", { sub_part: 10 }),
      part("PRIMARY", 1, "id", { non_unique: 0 }),
    ]);
    expect(indexes.get("shop.customer")?.map(indexLine)).toEqual([
      "name_idx (last(10), first DESC)",
      "PRIMARY PRIMARY KEY (id)",
    ]);
    expect(uniqueKeys.size).toBe(0);
  });

  it("from MySQL 8: a functional key part by its expression, an invisible index marked", () => {
    const { indexes, uniqueKeys } = indexesOf([
      part("email_lower_key", 1, null, { non_unique: "0", expression: "lower(`email`)" }),
      part("email_lower_key", 2, "tenant", { non_unique: "0" }),
      part("hidden_idx", 1, "phone", { invisible: 1 }),
    ]);
    expect(indexesText(indexes.get("shop.customer") ?? [])).toBe(
      "email_lower_key UNIQUE (lower(`email`), tenant)\nhidden_idx (phone) INVISIBLE",
    );
    // Only a plain column is a column of the unique key.
    expect([...uniqueKeys]).toEqual([["shop.customer.tenant", ["email_lower_key"]]]);
  });

  it("from MariaDB: an ignored index and a fulltext one say so", () => {
    const { indexes } = indexesOf([
      part("notes_ft", 1, "notes", { index_type: "FULLTEXT", sort_order: null }),
      part("phone_idx", 1, "phone", { ignored: 1 }),
    ]);
    expect(indexesText(indexes.get("shop.customer") ?? [])).toBe(
      "notes_ft USING fulltext (notes)\nphone_idx (phone) IGNORED",
    );
  });
});
