import { SEARCH_MIN_CHARS, type SearchHit } from "@ledgerline/contract";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import Form from "react-bootstrap/Form";
import { useNavigate } from "react-router";
import { useDebouncedValue } from "../../components/use-debounced-value.ts";
import { useProfile } from "../../state/session-store.ts";
import { HighlightedText } from "./highlighted-text.tsx";
import { hitLink, resultsLink } from "./hit-link.ts";
import { recentSearches, rememberSearch } from "./recent-searches.ts";
import { useSearch } from "./search-api.ts";
import "./search.css";

/** How long typing must pause before the box searches. */
const TYPING_PAUSE_MS = 150;
/** Hits shown of each type in the box. */
const PER_TYPE = 4;

type Option =
  | { kind: "hit"; hit: SearchHit; group: string }
  | { kind: "recent"; query: string }
  | { kind: "all" };

/** Whether the key pressed should open the search box from anywhere: `/` or Ctrl/Cmd+K. */
function opensSearch(event: globalThis.KeyboardEvent): boolean {
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") return true;
  if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return false;
  const target = event.target as HTMLElement | null;
  const typing =
    target !== null &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
  return !typing;
}

/**
 * The search box of the navigation bar: an accessible combobox (role=combobox with a listbox,
 * aria-activedescendant) that searches every record the user may read as they type, grouped by
 * application and type; arrow keys move, Enter opens, 'Show all results' opens /search.
 */
export function SearchBox() {
  const profile = useProfile();
  const navigate = useNavigate();
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const query = useDebouncedValue(text.trim(), TYPING_PAUSE_MS);
  const searching = query.length >= SEARCH_MIN_CHARS;
  const result = useSearch({ query, pageSize: PER_TYPE, perType: true }, open && searching);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (!opensSearch(event)) return;
      event.preventDefault();
      inputRef.current?.focus();
      setOpen(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const username = profile?.username ?? "";
  const options: Option[] = [];
  if (!searching) {
    for (const recent of recentSearches(username)) options.push({ kind: "recent", query: recent });
  } else if (result.data) {
    for (const hit of result.data.hits)
      options.push({ kind: "hit", hit, group: `${hit.context}/${hit.entityType}` });
    if (result.data.total > 0) options.push({ kind: "all" });
  }
  const activeIndex = active < options.length ? active : -1;
  const optionId = (i: number) => `${listId}-option-${i}`;

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const choose = (option: Option | undefined) => {
    if (option === undefined) {
      if (searching) choose({ kind: "all" });
      return;
    }
    if (option.kind === "recent") {
      setText(option.query);
      setActive(-1);
      return;
    }
    rememberSearch(username, text);
    setText("");
    close();
    inputRef.current?.blur();
    navigate(option.kind === "all" ? resultsLink(text.trim()) : hitLink(option.hit));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      if (activeIndex === -1) setActive(step === 1 ? 0 : options.length - 1);
      else setActive((activeIndex + step + options.length) % options.length);
    } else if (event.key === "Enter") {
      event.preventDefault();
      choose(options[activeIndex]);
    } else if (event.key === "Escape") {
      close();
    }
  };

  if (profile === null) return null;
  const expanded = open && (options.length > 0 || searching);
  let lastGroup = "";
  return (
    <div className="search-box position-relative" data-testid="search-box">
      <Form.Control
        ref={inputRef}
        type="search"
        size="sm"
        role="combobox"
        aria-label="Search records and the data dictionary"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
        placeholder="Search ( / )"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={close}
        onKeyDown={onKeyDown}
        data-testid="search-input"
      />
      <i className="bi bi-search search-icon" aria-hidden="true" />
      <div
        id={listId}
        role="listbox"
        aria-label="Search results"
        className="search-popup shadow"
        hidden={!expanded}
        data-testid="search-results"
      >
        {searching && result.data?.hits.length === 0 && !result.isFetching && (
          <div className="search-note" data-testid="search-none">
            Nothing found for '{query}'
          </div>
        )}
        {!searching && options.length > 0 && <div className="search-heading">Recent searches</div>}
        {options.map((option, i) => {
          const heading =
            option.kind === "hit" && option.group !== lastGroup ? groupHeading(option.hit) : null;
          if (option.kind === "hit") lastGroup = option.group;
          return (
            <div key={optionId(i)}>
              {heading && (
                <div className="search-heading" aria-hidden="true">
                  {heading}
                  {countOf(result.data?.groups, option)}
                </div>
              )}
              <div
                id={optionId(i)}
                role="option"
                // Focus stays in the input (aria-activedescendant); -1 keeps it out of the tab order.
                tabIndex={-1}
                aria-selected={i === activeIndex}
                className={`search-option${i === activeIndex ? " active" : ""}`}
                // Chosen before the input's blur closes the list.
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(option);
                }}
                onMouseEnter={() => setActive(i)}
                data-testid={`search-option-${option.kind}`}
              >
                <OptionText option={option} />
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

function groupHeading(hit: SearchHit): string {
  return `${hit.contextUiName} · ${hit.entityTypeUiName}`;
}

function countOf(
  groups: readonly { context: string; entityType: string; count: number; more: boolean }[] = [],
  option: Option,
): string {
  if (option.kind !== "hit") return "";
  const group = groups.find(
    (g) => g.context === option.hit.context && g.entityType === option.hit.entityType,
  );
  return group ? ` (${group.count}${group.more ? "+" : ""})` : "";
}

function OptionText({ option }: { option: Option }) {
  if (option.kind === "all") return <strong>Show all results</strong>;
  if (option.kind === "recent")
    return (
      <>
        <i className="bi bi-clock-history me-2" aria-hidden="true" />
        {option.query}
      </>
    );
  const { hit } = option;
  return (
    <>
      <span className="search-label">
        {hit.attribute !== "" && hit.value === hit.label ? (
          <HighlightedText text={hit.label} highlights={hit.highlights} />
        ) : (
          hit.label
        )}
      </span>
      {hit.value !== hit.label && (
        <span className="search-match">
          {hit.attributeUiName}: <HighlightedText text={hit.value} highlights={hit.highlights} />
        </span>
      )}
      <span className="visually-hidden">{`, ${hit.entityTypeUiName} in ${hit.contextUiName}`}</span>
    </>
  );
}
