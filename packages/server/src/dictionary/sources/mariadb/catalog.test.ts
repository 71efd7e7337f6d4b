import { describe, expect, it } from "vitest";
import { defaultOf } from "./catalog.ts";

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
