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

/** The values of one attribute across a list, in order. */
export function valuesOf(list: EntityList, attribute: string): unknown[] {
  return list.data.map((r) => r.requested.attrValues[attribute]?.value);
}

export function messageOf(res: LightMyRequestResponse): string {
  return (res.json() as { message: string }).message;
}
