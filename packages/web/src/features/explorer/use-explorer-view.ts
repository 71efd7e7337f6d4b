import { type EntityQuery, type EntityTypeInfo, PATH_ATTRIBUTE } from "@ledgerline/contract";
import type { VisibilityState } from "@tanstack/react-table";
import { useCallback, useMemo, useState } from "react";
import { useListControls } from "../../components/data-table/use-list-controls.ts";
import { hasRules } from "../../components/records/rule-check.ts";

/**
 * What the user set up for one entity type: paging, sorting, columns, filters, 'Breaks a rule'
 * and options, and the EntityQuery that follows from them at the moment listed (`asOf`, null for
 * now). The view is keyed by type, so a new type starts afresh.
 */
export function useExplorerView(
  context: string,
  type: EntityTypeInfo,
  asOf: string | null,
  /** One record only (a search result opened, `record` in the address); null for the whole list. */
  record: number | null = null,
) {
  // A tree's Path column is there to be chosen, not shown from the start.
  const [columnVisibility, setColumnVisibility] = useState<VisibilityState>(
    (): VisibilityState => (type.hierarchy ? { [PATH_ATTRIBUTE]: false } : {}),
  );
  const pathShown = type.hierarchy !== undefined && columnVisibility[PATH_ATTRIBUTE] !== false;
  const [showDiscontinued, setShowDiscontinued] = useState(false);
  const [trimCells, setTrimCells] = useState(true);
  // 'Breaks a rule' is offered only for types that declare rules.
  const rulesDeclared = hasRules(type);
  const [breaksRuleChosen, setBreaksRule] = useState(false);
  const breaksRule = rulesDeclared && breaksRuleChosen;
  const controls = useListControls(type.attributes, `${showDiscontinued}|${breaksRule}|${asOf}`);
  const { listParams, page, pageSize, seek } = controls;

  /** The list without paging: shared by the page query and the xlsx export. */
  const baseQuery = useMemo(
    (): EntityQuery => ({
      context,
      entityType: type.name,
      ...(showDiscontinued ? { includeDeleted: true } : {}),
      ...(breaksRule ? { breaksRule: true } : {}),
      ...(asOf ? { asOf } : {}),
      ...(record !== null ? { entityKeyID: record, includeDeleted: true } : {}),
      ...listParams,
    }),
    [context, type.name, showDiscontinued, breaksRule, asOf, record, listParams],
  );

  // The exact count, once asked for, holds for this list until what is listed changes.
  const [exact, setExact] = useState({ list: "", goToLast: false });
  const listed = JSON.stringify(baseQuery);
  const exactCount = exact.list === listed;
  const askExactCount = useCallback(
    (goToLast: boolean) => setExact({ list: listed, goToLast }),
    [listed],
  );

  const query = useMemo(
    (): EntityQuery => ({
      ...baseQuery,
      pageNum: page,
      pageSize,
      ...(seek ? { seek } : {}),
      ...(exactCount ? { exactCount: true } : {}),
      // Each listed value marks the rules it breaks (the table's cells).
      ...(rulesDeclared ? { includeRuleBreaches: true } : {}),
      ...(pathShown
        ? { requestedAttributes: [...type.attributes.map((a) => a.name), PATH_ATTRIBUTE] }
        : {}),
    }),
    [baseQuery, page, pageSize, seek, exactCount, rulesDeclared, pathShown, type.attributes],
  );

  const hiddenCount = type.attributes.filter((a) => columnVisibility[a.name] === false).length;

  return {
    ...controls,
    query,
    baseQuery,
    columnVisibility,
    setColumnVisibility,
    hiddenCount,
    showDiscontinued,
    setShowDiscontinued,
    trimCells,
    setTrimCells,
    rulesDeclared,
    breaksRule,
    setBreaksRule,
    askExactCount,
    /** The last page was asked for while the count was estimated: go there once it is counted. */
    lastPageWanted: exactCount && exact.goToLast,
  };
}

export type ExplorerView = ReturnType<typeof useExplorerView>;
