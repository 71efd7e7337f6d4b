import type { AttributeInfo } from "@ledgerline/contract";
import { useState } from "react";
import { AddFilterMenu } from "./add-filter-menu.tsx";
import { type FilterTab, newFilter, newTab, tabsUpdates } from "./filter-model.ts";
import { FilterRow } from "./filter-row.tsx";
import { FilterTabsNav } from "./filter-tabs-nav.tsx";
import "./filters.css";

interface FilterPanelProps {
  context: string;
  attributes: readonly AttributeInfo[];
  tabs: FilterTab[];
  onChange: (update: (tabs: FilterTab[]) => FilterTab[]) => void;
}

/** Searches as tabs: filters within a tab must all hold, any enabled tab may match. */
export function FilterPanel({ context, attributes, tabs, onChange }: FilterPanelProps) {
  const [chosenId, setChosenId] = useState<number | undefined>(tabs[0]?.id);
  const active = tabs.find((t) => t.id === chosenId) ?? tabs[0];

  const addTab = () => {
    const tab = newTab();
    onChange(tabsUpdates.add(tab));
    setChosenId(tab.id);
  };
  const closeTab = (tabId: number) => {
    const index = tabs.findIndex((t) => t.id === tabId);
    const neighbour = tabs[index + 1] ?? tabs[index - 1];
    onChange(tabsUpdates.remove(tabId));
    if (tabId === active?.id) setChosenId(neighbour?.id);
  };

  return (
    <div className="card shadow-sm mb-3" data-testid="filter-panel">
      <div className="card-header bg-body-tertiary pb-0 border-bottom-0">
        <FilterTabsNav
          tabs={tabs}
          activeId={active?.id}
          onSelect={setChosenId}
          onToggle={(id) => onChange(tabsUpdates.toggle(id))}
          onClose={closeTab}
          onAdd={addTab}
        />
      </div>
      <div className="card-body border-top">
        {active === undefined || active.filters.length === 0 ? (
          <p className="text-body-secondary fst-italic small mb-2" data-testid="no-filters">
            (No Active Filters)
          </p>
        ) : (
          <div className="d-flex flex-column gap-2 mb-3">
            {active.filters.map((row) => {
              const attr = attributes.find((a) => a.name === row.attribute);
              if (!attr) return null;
              return (
                <FilterRow
                  key={row.id}
                  context={context}
                  attr={attr}
                  row={row}
                  onChange={(next) => onChange(tabsUpdates.changeFilter(active.id, next))}
                  onDuplicate={() => onChange(tabsUpdates.duplicateFilter(active.id, row.id))}
                  onRemove={() => onChange(tabsUpdates.removeFilter(active.id, row.id))}
                />
              );
            })}
          </div>
        )}
        {active !== undefined && (
          <AddFilterMenu
            attributes={attributes}
            onAdd={(attr) => onChange(tabsUpdates.addFilter(active.id, newFilter(attr)))}
          />
        )}
      </div>
    </div>
  );
}
