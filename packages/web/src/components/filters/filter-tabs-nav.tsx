import type { FilterTab } from "./filter-model.ts";

interface FilterTabsNavProps {
  tabs: readonly FilterTab[];
  activeId: number | undefined;
  onSelect: (tabId: number) => void;
  onToggle: (tabId: number) => void;
  onClose: (tabId: number) => void;
  onAdd: () => void;
}

/**
 * The 'search N' tabs, each with its enable checkbox icon and close button. Built by hand rather
 * than with <Tabs>, whose titles sit inside a button and so cannot hold buttons of their own.
 */
export function FilterTabsNav({
  tabs,
  activeId,
  onSelect,
  onToggle,
  onClose,
  onAdd,
}: FilterTabsNavProps) {
  return (
    // A group, not a tablist: each search carries its own toggle and close buttons, which a
    // tablist may not hold (WCAG 4.1.2); the chosen search is marked aria-current.
    <fieldset className="nav nav-tabs filter-tabs" aria-label="Searches">
      {tabs.map((tab, index) => {
        const name = `search ${index + 1}`;
        const active = tab.id === activeId;
        return (
          <div key={tab.id} className="nav-item" role="presentation">
            <div className={`nav-link d-flex align-items-center gap-2 ${active ? "active" : ""}`}>
              <button
                type="button"
                className="btn btn-link p-0 lh-1 text-reset"
                aria-label={`${tab.enabled ? "Disable" : "Enable"} ${name}`}
                title={tab.enabled ? "Enabled: click to disable" : "Disabled: click to enable"}
                aria-pressed={tab.enabled}
                onClick={() => onToggle(tab.id)}
                data-testid="filter-tab-toggle"
              >
                <i
                  className={`bi ${tab.enabled ? "bi-check-square-fill text-primary" : "bi-square text-body-tertiary"}`}
                  aria-hidden="true"
                />
              </button>
              <button
                type="button"
                aria-current={active ? "true" : undefined}
                className={`btn btn-link p-0 text-decoration-none ${tab.enabled ? "text-reset" : "text-body-tertiary text-decoration-line-through"}`}
                onClick={() => onSelect(tab.id)}
              >
                {name}
                {tab.filters.length > 0 && (
                  <span className="badge rounded-pill text-bg-light border ms-1">
                    {tab.filters.length}
                  </span>
                )}
              </button>
              <button
                type="button"
                className="btn-close filter-tab-close"
                aria-label={`Close ${name}`}
                onClick={() => onClose(tab.id)}
              />
            </div>
          </div>
        );
      })}
      <div className="nav-item" role="presentation">
        <button
          type="button"
          className="nav-link px-3"
          aria-label="Add search tab"
          title="Add search tab"
          onClick={onAdd}
        >
          <i className="bi bi-plus-lg" aria-hidden="true" />
        </button>
      </div>
    </fieldset>
  );
}
