import {
  ApiTokenList,
  EntityList,
  EntityTypeInfo,
  HistoryResponse,
  MsgBody,
} from "@ledgerline/contract";
import { serializerCompiler } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { answerSerializer } from "./serializer.ts";

const route = (schema: unknown) =>
  ({ schema, method: "POST", url: "/api/test", httpStatus: "200" }) as Parameters<
    typeof serializerCompiler
  >[0];
const ours = (schema: unknown) => answerSerializer(route(schema)) as (data: unknown) => string;
const zods = (schema: unknown) => serializerCompiler(route(schema)) as (data: unknown) => string;

const record = (i: number) => ({
  entityKeyID: i,
  contextName: "reference",
  entityTypeName: "currency",
  requested: {
    attrValues: {
      code: { value: `C${i}` },
      rate: { value: i * 1.5, label: "1.5" },
      active: { value: i % 2 === 0 },
      note: { value: null, label: "" },
    },
    isDeleted: false,
  },
  keyAttrValues: { code: `C${i}` },
  version: 3,
  passwordHash: "never sent",
  ...(i === 1
    ? {
        label: 'C1 "quoted" \u2028 line',
        pending: [
          {
            action: "Update",
            entityEventID: 7,
            effectiveFrom: "2026-01-01",
            createDate: "2026-01-01",
            createdBy: "steward",
            attrValues: { rate: { value: 2 } },
            ruleBreaches: [],
          },
        ],
      }
    : {}),
});

describe("the answer serializer", () => {
  it("writes what zod's serializer writes, undeclared fields left out", () => {
    const same = (schema: unknown, answer: unknown) =>
      expect(JSON.parse(ours(schema)(answer))).toEqual(JSON.parse(zods(schema)(answer)));
    const fitting = [0, 1, 2].map((i) => {
      const { passwordHash: _, ...rest } = record(i);
      return rest;
    });
    same(EntityList, { data: fitting, querySize: 3 });
    expect(ours(EntityList)({ data: fitting, querySize: 3 })).toBe(
      JSON.stringify({ data: fitting, querySize: 3 }),
    );
    const list = { data: [0, 1, 2].map(record), querySize: 3, extra: { secret: 1 } };
    same(EntityList, list);
    expect(ours(EntityList)(list)).not.toContain("never sent");
    expect(ours(EntityList)(list)).not.toContain("secret");
    expect(ours(MsgBody)({ Msg: "done" })).toBe('{"Msg":"done"}');
    const history = {
      events: [
        {
          entityEventID: 1,
          action: "Create",
          status: "approved",
          source: "web",
          createdBy: "admin",
          createDate: "2026-01-01T00:00:00.000Z",
          decidedBy: null,
          decidedAt: null,
          oldValues: null,
          newValues: { code: "EUR", rate: 1, active: true, none: null },
        },
      ],
    };
    same(HistoryResponse, history);
    same(ApiTokenList, { maxDays: 90, tokens: [] });
  });

  it("refuses an answer that does not fit its schema, as zod's serializer does", () => {
    const wrong = [
      { data: [{ ...record(0), version: "3" }], querySize: 1 },
      { data: [{ ...record(0), version: Number.NaN }], querySize: 1 },
      { data: [record(0)] },
      { data: [{ ...record(0), keyAttrValues: { code: new Date(0) } }], querySize: 1 },
    ];
    for (const answer of wrong) {
      expect(() => ours(EntityList)(answer)).toThrow();
      expect(() => zods(EntityList)(answer)).toThrow();
    }
    expect(() => ours(EntityTypeInfo)({ name: "x" })).toThrow();
  });

  it("leaves schemas with checks or kinds it does not know to zod", () => {
    const checked = z.object({ name: z.string().min(3), when: z.iso.datetime() });
    expect(() => ours(checked)({ name: "ab", when: "2026-01-01T00:00:00Z" })).toThrow();
    const pair = z.object({ pair: z.tuple([z.string(), z.number()]) });
    expect(ours(pair)({ pair: ["a", 1], more: 2 })).toBe('{"pair":["a",1]}');
  });
});
