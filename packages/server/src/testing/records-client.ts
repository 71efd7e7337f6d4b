import type { EntityList, EntityQuery } from "@ledgerline/contract";
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { TestApp } from "./test-app.ts";

/** Calls /api/entity and expects 200. */
export async function listRecords(
  t: TestApp,
  cookie: string,
  query: Partial<EntityQuery> & { entityType: string },
): Promise<EntityList> {
  const res = await t.post("/api/entity", { context: "reference", ...query }, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as EntityList;
}

/** The key of the record whose `name` is the given one. */
export async function keyByName(
  t: TestApp,
  cookie: string,
  where: { context: string; entityType: string },
  name: string,
): Promise<number> {
  const list = await listRecords(t, cookie, {
    ...where,
    rowConstraints: [{ attribute: "name", operator: "=", values: [name] }],
  });
  return list.data[0].entityKeyID;
}

/** The values of one attribute across a list, in order. */
export function valuesOf(list: EntityList, attribute: string): unknown[] {
  return list.data.map((r) => r.requested.attrValues[attribute]?.value);
}

export function messageOf(res: LightMyRequestResponse): string {
  return (res.json() as { message: string }).message;
}
