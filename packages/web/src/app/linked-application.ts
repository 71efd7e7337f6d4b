import { type Context, DATA_DICTIONARY_CONTEXT } from "@ledgerline/contract";

/**
 * Screens whose address carries their application (`context=<name>`), so a link opens the same
 * view for anyone: `"by-type"` screens (explorer with its compare view, pending) may name a type
 * (`type=<name>`) that old links use to find the application; `"dictionary"` screens (system
 * environments, metadata sources, wiki manager) exist in the 'Data Dictionary' only.
 */
export type LinkKind = "by-type" | "dictionary";

/** The route `handle` that marks a linked screen (routes.tsx, dictionary-routes.tsx). */
export interface LinkHandle {
  link: LinkKind;
}

/** What a linked screen shows, decided from its address, the user's applications and selection. */
export type LinkedApplication =
  /** The user's applications (or the types a link needs) are still loading. */
  | { kind: "opening" }
  /** No application named, found or selected: 'Please select an application'. */
  | { kind: "none" }
  | { kind: "open"; context: string }
  /** The link cannot be opened: said plainly, with the applications to choose from if several fit. */
  | { kind: "refused"; message: string; choices: readonly Context[] };

export interface LinkInput {
  /** `context` of the address, or null. */
  named: string | null;
  /** `type` of the address (by-type screens), or null. */
  typeName: string | null;
  /** The stored selection. */
  selected: string | null;
  /** The user's applications; undefined while they load. */
  applications: readonly Context[] | undefined;
  /** Names of the types the user may read in an application: undefined while loading, null when they could not be loaded. */
  typesOf: (context: string) => readonly string[] | null | undefined;
}

/** The texts a refused link shows (docs/decisions.md, "Links carry their application"). */
export const LINK_TEXTS = {
  noApplication: (name: string) => `There is no application '${name}' you may use.`,
  noTypeIn: (typeName: string, uiName: string) =>
    `There is no data type '${typeName}' you may read in ${uiName}.`,
  noTypeAnywhere: (typeName: string) =>
    `There is no data type '${typeName}' you may read in your applications.`,
  severalHaveType: (typeName: string, uiNames: readonly string[]) =>
    `Several of your applications have a data type '${typeName}': ${listed(uiNames)}. Choose the one to open.`,
  openIn: (uiName: string) => `Open in ${uiName}`,
} as const;

/** 'A', 'A and B', 'A, B and C'. */
function listed(names: readonly string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

const refused = (message: string, choices: readonly Context[] = []): LinkedApplication => ({
  kind: "refused",
  message,
  choices,
});

/**
 * The application a linked screen opens: the address's `context` wins over the selection; without
 * it, an old link's `type` picks the one application of the user that has it (the selected one
 * when several do); without either, the selection. A named application the user has not, or a
 * type they may not read there, is refused with a plain message.
 */
export function resolveLinkedApplication(input: LinkInput): LinkedApplication {
  const { named, typeName, applications, typesOf } = input;
  if (applications === undefined) return { kind: "opening" };
  // The only application of a user is theirs selected (session-store's applyContextList), even
  // before the store has taken the list in: a screen opened meanwhile must not see none.
  const selected = applications.length === 1 ? applications[0].name : input.selected;

  if (named !== null) {
    const app = applications.find((a) => a.name === named);
    if (!app) return refused(LINK_TEXTS.noApplication(named));
    if (typeName === null) return { kind: "open", context: app.name };
    const types = typesOf(app.name);
    if (types === undefined) return { kind: "opening" };
    // Types that could not be loaded are not held against the link: the screen says what failed.
    if (types !== null && !types.includes(typeName))
      return refused(LINK_TEXTS.noTypeIn(typeName, app.uiName));
    return { kind: "open", context: app.name };
  }

  if (typeName !== null) {
    const lists = applications.map((app) => ({ app, types: typesOf(app.name) }));
    if (lists.some((l) => l.types === undefined)) return { kind: "opening" };
    const holders = lists.filter((l) => l.types?.includes(typeName)).map((l) => l.app);
    if (holders.length === 0) return refused(LINK_TEXTS.noTypeAnywhere(typeName));
    if (holders.length === 1) return { kind: "open", context: holders[0].name };
    const mine = holders.find((a) => a.name === selected);
    if (mine) return { kind: "open", context: mine.name };
    const uiNames = holders.map((a) => a.uiName);
    return refused(LINK_TEXTS.severalHaveType(typeName, uiNames), holders);
  }

  if (selected !== null && applications.some((a) => a.name === selected))
    return { kind: "open", context: selected };
  return { kind: "none" };
}

/** Whether a screen of this kind can show the application (the dictionary's only its own). */
export function shows(kind: LinkKind, context: string): boolean {
  return kind === "by-type" || context === DATA_DICTIONARY_CONTEXT;
}

/**
 * What the screen shows: an application it opens only once the address names it and it is the
 * selected one (useLinkedApplicationSync makes them so), so that nothing the screen writes into
 * the address meanwhile is lost to that sync.
 */
export function settledView(
  kind: LinkKind,
  result: LinkedApplication,
  named: string | null,
  selected: string | null,
): LinkedApplication {
  if (result.kind !== "open" || !shows(kind, result.context)) return result;
  return named === result.context && selected === result.context ? result : { kind: "opening" };
}

export interface SyncInput {
  kind: LinkKind;
  result: LinkedApplication;
  named: string | null;
  selected: string | null;
  /** The address's application changed since the last step, or the screen was just entered. */
  addressMoved: boolean;
  /** The selection changed since the last step (the navigation bar, another tab). */
  selectionMoved: boolean;
}

export interface SyncStep {
  /** The application to select, or null to leave the selection. */
  select: string | null;
  /**
   * How to replace the address's parameters: `clear` starts over in the selected application (the
   * old one's type, moment or change set mean nothing there); `context` writes the application.
   */
  address: { kind: "clear" } | { kind: "context"; context: string } | null;
}

/**
 * One step of keeping a linked screen's address and the selection in agreement: the last one to
 * change wins. A new address selects its application; a selection changed under an address that
 * names another (the navigation bar, another tab) moves the screen to the selected application.
 */
export function syncStep(input: SyncInput): SyncStep {
  const { kind, result, named, selected, addressMoved, selectionMoved } = input;
  const nothing: SyncStep = { select: null, address: null };
  if (result.kind === "opening") return nothing;
  if (selectionMoved && !addressMoved && selected !== null && named !== null && named !== selected)
    return { select: null, address: { kind: "clear" } };
  if (result.kind !== "open" || !shows(kind, result.context)) return nothing;
  const context = result.context;
  return {
    select: selected === context ? null : context,
    address: named === context ? null : { kind: "context", context },
  };
}

/** The applications whose types resolveLinkedApplication will ask for (loaded before it decides). */
export function typesNeeded(
  named: string | null,
  typeName: string | null,
  applications: readonly Context[] | undefined,
): string[] {
  if (typeName === null || applications === undefined) return [];
  if (named !== null) return applications.some((a) => a.name === named) ? [named] : [];
  return applications.map((a) => a.name);
}

/** The address's parameters with `context` first (set or replaced), the others as they were. */
export function withContext(params: URLSearchParams, context: string): URLSearchParams {
  const next = new URLSearchParams({ context });
  for (const [name, value] of params) if (name !== "context") next.append(name, value);
  return next;
}

/** The kind of linked screen the matched routes declare, or null for any other screen. */
export function linkKindOf(handles: readonly unknown[]): LinkKind | null {
  for (let i = handles.length - 1; i >= 0; i--) {
    const handle = handles[i];
    if (typeof handle === "object" && handle !== null && "link" in handle) {
      const link = (handle as { link: unknown }).link;
      if (link === "by-type" || link === "dictionary") return link;
    }
  }
  return null;
}
