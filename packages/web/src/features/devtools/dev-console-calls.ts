import {
  type ContextRequest,
  type EntityQuery,
  type EntityTypeRequest,
  LABEL_ORDER,
} from "@ledgerline/contract";

/** The console's tabs, in SPEC.md's order. */
export const CONSOLE_TABS = [
  { id: "filelayouts", title: "Get File Layouts" },
  { id: "entitytypes", title: "Get Entity Types" },
  { id: "entitytype", title: "Get Entity Type" },
  { id: "data", title: "Get Data" },
  { id: "bykey", title: "Get Entity By Key" },
  { id: "reflist", title: "Get Reference Entity List" },
  { id: "pendingsummary", title: "Get Pending Summary" },
  { id: "pending", title: "Get Pending" },
  { id: "actions", title: "Get actions" },
] as const;

export type ConsoleTabId = (typeof CONSOLE_TABS)[number]["id"];

/** What the tabs ask for besides the context (only the inputs a tab shows are used). */
export interface ConsoleInputs {
  entityType: string;
  showDiscontinued: boolean;
  showActive: boolean;
  entityKeyID: string;
  pageSize: string;
  pageNum: string;
}

export const initialConsoleInputs: ConsoleInputs = {
  entityType: "",
  showDiscontinued: false,
  showActive: true,
  entityKeyID: "",
  pageSize: "20",
  pageNum: "1",
};

/** Which inputs a tab shows. */
export type ConsoleField = "entityType" | "rowFlags" | "entityKeyID" | "paging";

export const TAB_FIELDS: Record<ConsoleTabId, readonly ConsoleField[]> = {
  filelayouts: [],
  entitytypes: [],
  entitytype: ["entityType"],
  data: ["entityType", "rowFlags", "paging"],
  bykey: ["entityType", "entityKeyID"],
  reflist: ["entityType"],
  pendingsummary: [],
  pending: ["entityType", "paging"],
  actions: ["entityType"],
};

export interface ConsoleRequest {
  path: string;
  body: object;
}

/** A request to send, or why the tab's inputs do not make one yet. */
export type ConsoleRequestOrProblem =
  | { ok: true; request: ConsoleRequest }
  | { ok: false; problem: string };

const problem = (text: string): ConsoleRequestOrProblem => ({ ok: false, problem: text });
const request = (path: string, body: object) => ({ ok: true, request: { path, body } }) as const;

/** The call a tab makes for the given context and inputs. */
export function buildConsoleRequest(
  tab: ConsoleTabId,
  context: string,
  inputs: ConsoleInputs,
): ConsoleRequestOrProblem {
  if (context === "") return problem("Choose a context");
  const contextOnly: ContextRequest = { context };
  if (tab === "filelayouts") return request("/api/filelayouts", contextOnly);
  if (tab === "entitytypes") return request("/api/entitytypes", contextOnly);
  if (tab === "pendingsummary") return request("/api/getpendingsummary", contextOnly);

  const { entityType } = inputs;
  if (entityType === "") return problem("Choose an entity type");
  const typed: EntityTypeRequest = { context, entityType };
  switch (tab) {
    case "entitytype":
      return request("/api/entitytype", typed);
    case "actions":
      return request("/api/actions", typed);
    case "reflist":
      return request("/api/entity", {
        ...typed,
        includeLabels: true,
        requestedAttributes: [],
        pageSize: 0,
        rowOrders: [{ attribute: LABEL_ORDER, asc: true }],
      } satisfies EntityQuery);
    case "bykey": {
      const key = positiveInteger(inputs.entityKeyID);
      if (key === undefined) return problem("Enter an entity key id (a whole number above 0)");
      // Discontinued records are records too: a developer asking by key wants to see them.
      return request("/api/entity", {
        ...typed,
        entityKeyID: key,
        includeDeleted: true,
      } satisfies EntityQuery);
    }
    case "pending": {
      const paging = pagingOf(inputs);
      if (!paging.ok) return paging;
      return request("/api/entity", {
        ...typed,
        ...paging.value,
        requirePending: true,
        includeDeleted: true,
      } satisfies EntityQuery);
    }
    case "data": {
      const { showActive, showDiscontinued } = inputs;
      if (!showActive && !showDiscontinued)
        return problem("Show active rows, discontinued rows or both");
      const paging = pagingOf(inputs);
      if (!paging.ok) return paging;
      const only = showDiscontinued && !showActive ? { onlyDeleted: true } : {};
      return request("/api/entity", {
        ...typed,
        ...paging.value,
        includeDeleted: showDiscontinued,
        ...only,
      } satisfies EntityQuery);
    }
  }
}

type Paging =
  | { ok: true; value: Pick<EntityQuery, "pageSize" | "pageNum"> }
  | {
      ok: false;
      problem: string;
    };

function pagingOf({ pageSize, pageNum }: ConsoleInputs): Paging {
  const size = wholeNumber(pageSize);
  if (size === undefined)
    return { ok: false, problem: "Page size must be a whole number (0 = all)" };
  const num = positiveInteger(pageNum);
  if (num === undefined) return { ok: false, problem: "Page must be a whole number from 1" };
  return { ok: true, value: { pageSize: size, pageNum: num } };
}

function wholeNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : undefined;
}

function positiveInteger(text: string): number | undefined {
  const value = wholeNumber(text);
  return value !== undefined && value > 0 ? value : undefined;
}
