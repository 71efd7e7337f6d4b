import { describe, expect, it } from "vitest";
import {
  buildConsoleRequest,
  type ConsoleInputs,
  initialConsoleInputs,
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

  it("includes discontinued rows when asked, and asks for them alone without active ones", () => {
    expect(requestOf("data", "reference", inputs())).toEqual({
      path: "/api/entity",
      body: {
        context: "reference",
        entityType: "currency",
        pageSize: 20,
        pageNum: 1,
        includeDeleted: false,
      },
    });
    const both = requestOf("data", "reference", inputs({ showDiscontinued: true }));
    expect(both.body).toEqual(expect.objectContaining({ includeDeleted: true }));
    expect(both.body).not.toHaveProperty("onlyDeleted");
    const only = requestOf(
      "data",
      "reference",
      inputs({ showDiscontinued: true, showActive: false }),
    );
    expect(only.body).toMatchObject({ includeDeleted: true, onlyDeleted: true });
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
