import { describe, expect, it } from "vitest";
import { viewReads } from "./view-definition.ts";

// Definitions as MariaDB 10.11 stores them (information_schema.VIEWS.VIEW_DEFINITION).
describe("what a MariaDB view reads, from its definition", () => {
  it("follows qualified names, aliases, joins, subqueries and unions", () => {
    expect(
      viewReads(
        "select `db`.`o`.`id` AS `id`,`x`.`n` AS `n`,(select max(`db`.`o`.`t`) from `db`.`o`) AS `m` from (`db`.`o` join `db`.`c` `x` on(`db`.`o`.`c` = `x`.`id`)) where `db`.`o`.`t` > 5 union select `db`.`c`.`id` AS `id`,1 AS `1`,'a `b`' AS `s` from `db`.`c`",
      ),
    ).toEqual({
      parsed: true,
      reads: [
        { schema: "db", name: "o", columns: ["id", "t", "c"] },
        { schema: "db", name: "c", columns: ["n", "id"] },
      ],
    });
  });

  it("reads a table of another database, and a table whose columns it does not name", () => {
    expect(viewReads("select count(0) AS `n` from `other`.`archive`")).toEqual({
      parsed: true,
      reads: [{ schema: "other", name: "archive", columns: [] }],
    });
    expect(viewReads("select 1 AS `one`")).toEqual({ parsed: true, reads: [] });
    expect(viewReads("select `a``b`.`t`.`c` AS `c` from `a``b`.`t`")).toEqual({
      parsed: true,
      reads: [{ schema: "a`b", name: "t", columns: ["c"] }],
    });
  });

  it("says why rather than guess", () => {
    expect(
      viewReads(
        "with q as (select `db`.`o`.`id` AS `id` from `db`.`o`)select `q`.`id` AS `id` from `q`",
      ),
    ).toEqual({ parsed: false, why: "a common table expression (WITH)" });
    expect(
      viewReads("select `d`.`id` AS `id` from (select `db`.`o`.`id` AS `id` from `db`.`o`) `d`"),
    ).toEqual({ parsed: false, why: "a name it cannot place" });
    expect(
      viewReads(
        "select `j`.`a` AS `a` from json_table('[]', '$[*]' columns (`a` int path '$')) `j`",
      ),
    ).toEqual({
      parsed: false,
      why: "a table function or subquery in FROM",
    });
    expect(viewReads("select `db`.`o`.`id` AS `id` from `db`.`o` where `x")).toEqual({
      parsed: false,
      why: "an unterminated quoted name",
    });
    expect(viewReads("")).toEqual({
      parsed: false,
      why: "its definition cannot be read (SHOW VIEW right)",
    });
  });
});
