import type { EntityList } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import {
  buildConsoleRequest,
  type ConsoleInputs,
  initialConsoleInputs,
  shapeAnswer,
} from "./dev-console-calls.ts";

const inputs = (patch: Partial<ConsoleInputs> = {}): ConsoleInputs => ({
  ...initialConsoleInputs,
  entityType: "currency",
  ...patch,
});

const requestOf = (...args: Parameters<typeof buildConsoleRequest>) => {
  const built = buildConsoleRequest(...args);
  if (!built.ok) throw new Error(built.problem);
  return built.request;
};

describe("the developer console's requests", () => {
  it("sends only the context for layouts, types and the pending summary", () => {
    expect(requestOf("filelayouts", "reference", inputs())).toEqual({
      path: "/api/filelayouts",
      body: { context: "reference" },
    });
    expect(requestOf("entitytypes", "reference", inputs()).path).toBe("/api/entitytypes");
    expect(requestOf("pendingsummary", "reference", inputs())).toEqual({
      path: "/api/getpendingsummary",
      body: { context: "reference" },
    });
  });

  it("names the type for one entity type and for the actions", () => {
    const typed = { context: "reference", entityType: "currency" };
    expect(requestOf("entitytype", "reference", inputs())).toEqual({
      path: "/api/entitytype",
      body: typed,
    });
    expect(requestOf("actions", "reference", inputs())).toEqual({
      path: "/api/actions",
      body: typed,
    });
  });

  it("asks for a reference list sorted by label with labels only", () => {
    expect(requestOf("reflist", "reference", inputs()).body).toEqual({
      context: "reference",
      entityType: "currency",
      includeLabels: true,
      requestedAttributes: [],
      pageSize: 0,
      rowOrders: [{ attribute: "_label", asc: true }],
    });
  });

  it("asks for pending records with discontinued ones included", () => {
    expect(requestOf("pending", "reference", inputs()).body).toMatchObject({
      requirePending: true,
      includeDeleted: true,
      pageSize: 20,
      pageNum: 1,
    });
  });

  it("includes discontinued rows only when asked, and filters them alone on the client", () => {
    expect(requestOf("data", "reference", inputs())).toEqual({
      path: "/api/entity",
      body: {
        context: "reference",
        entityType: "currency",
        pageSize: 20,
        pageNum: 1,
        includeDeleted: false,
      },
      onlyDiscontinued: false,
    });
    const both = requestOf("data", "reference", inputs({ showDiscontinued: true }));
    expect(both.body).toMatchObject({ includeDeleted: true });
    expect(both.onlyDiscontinued).toBe(false);
    const only = requestOf(
      "data",
      "reference",
      inputs({ showDiscontinued: true, showActive: false }),
    );
    expect(only.body).toMatchObject({ includeDeleted: true });
    expect(only.onlyDiscontinued).toBe(true);
  });

  it("refuses to run without a context, a type, rows to show or a valid key or page", () => {
    expect(buildConsoleRequest("entitytypes", "", inputs()).ok).toBe(false);
    expect(buildConsoleRequest("data", "reference", inputs({ entityType: "" })).ok).toBe(false);
    expect(buildConsoleRequest("data", "reference", inputs({ showActive: false })).ok).toBe(false);
    expect(buildConsoleRequest("bykey", "reference", inputs({ entityKeyID: "" })).ok).toBe(false);
    expect(buildConsoleRequest("bykey", "reference", inputs({ entityKeyID: "1.5" })).ok).toBe(
      false,
    );
    expect(buildConsoleRequest("data", "reference", inputs({ pageNum: "0" })).ok).toBe(false);
    expect(requestOf("bykey", "reference", inputs({ entityKeyID: " 7 " })).body).toMatchObject({
      entityKeyID: 7,
      includeDeleted: true,
    });
    expect(requestOf("data", "reference", inputs({ pageSize: "0" })).body).toMatchObject({
      pageSize: 0,
    });
  });
});

describe("shapeAnswer", () => {
  const row = (entityKeyID: number, isDeleted: boolean) => ({
    entityKeyID,
    contextName: "reference",
    entityTypeName: "currency",
    requested: { attrValues: {}, isDeleted },
    keyAttrValues: {},
    version: 1,
  });
  const answer: EntityList = { data: [row(1, false), row(2, true)], querySize: 2 };

  it("keeps only discontinued rows when the request says so", () => {
    const request = { path: "/api/entity", body: {}, onlyDiscontinued: true };
    expect(shapeAnswer(request, answer)).toEqual({ data: [row(2, true)], querySize: 2 });
  });

  it("leaves every other answer as it came", () => {
    expect(shapeAnswer({ path: "/api/entity", body: {} }, answer)).toBe(answer);
    const request = { path: "/api/entity", body: {}, onlyDiscontinued: true };
    expect(shapeAnswer(request, [1, 2])).toEqual([1, 2]);
  });
});
