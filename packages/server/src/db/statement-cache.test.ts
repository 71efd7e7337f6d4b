import { describe, expect, it } from "vitest";
import { StatementCache } from "./statement-cache.ts";

describe("StatementCache", () => {
  it("names a text once it has run `threshold` times, then keeps that name", () => {
    const cache = new StatementCache({ threshold: 3, size: 10, chars: 1_000 });
    expect(cache.planFor("select 1")).toEqual({});
    expect(cache.planFor("select 1")).toEqual({});
    const { name } = cache.planFor("select 1");
    expect(name).toMatch(/^ledgerline_\d+$/);
    expect(cache.planFor("select 1")).toEqual({ name });
    expect(cache.planFor("select 2")).toEqual({});
  });

  it("closes the least recently used name beyond its size, and never reuses a name", () => {
    const cache = new StatementCache({ threshold: 1, size: 2, chars: 1_000 });
    const a = cache.planFor("a").name;
    const b = cache.planFor("b").name;
    expect(cache.planFor("a")).toEqual({ name: a });
    const c = cache.planFor("c");
    expect(c.close).toEqual([b]);
    expect(new Set([a, b, c.name]).size).toBe(3);
    const again = cache.planFor("b");
    expect(again.name).not.toBe(b);
    expect(again.close).toEqual([a]);
  });

  it("closes the least recently used beyond its characters, and never prepares a longer text", () => {
    const cache = new StatementCache({ threshold: 1, size: 10, chars: 10 });
    const a = cache.planFor("aaaa").name;
    const b = cache.planFor("bbbb").name;
    expect(cache.planFor("aaaa")).toEqual({ name: a });
    const c = cache.planFor("cccccc");
    expect(c.close).toEqual([b]);
    const d = cache.planFor("dddddddd");
    expect(d.close).toEqual([a, c.name]);
    expect(cache.planFor("e".repeat(11))).toEqual({});
    expect(cache.forget("dddddddd")).toBe(d.name);
    expect(cache.planFor("ffffffffff").close).toBeUndefined();
  });

  it("forgets a text on demand, answering the name to close", () => {
    const cache = new StatementCache({ threshold: 1, size: 5, chars: 1_000 });
    const { name } = cache.planFor("x");
    expect(cache.forget("x")).toBe(name);
    expect(cache.forget("x")).toBeUndefined();
    expect(cache.planFor("x").name).not.toBe(name);
  });

  it("prepares nothing with size 0", () => {
    const cache = new StatementCache({ threshold: 1, size: 0, chars: 1_000 });
    expect(cache.planFor("x")).toEqual({});
    expect(cache.planFor("x")).toEqual({});
  });
});
