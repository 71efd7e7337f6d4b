import { SEARCH_KINDS, SEARCH_MIN_CHARS, type SearchKind } from "@ledgerline/contract";
import Alert from "react-bootstrap/Alert";
import Badge from "react-bootstrap/Badge";
import Form from "react-bootstrap/Form";
import ListGroup from "react-bootstrap/ListGroup";
import Spinner from "react-bootstrap/Spinner";
import { Link, useSearchParams } from "react-router";
import { PaginationBar } from "../../components/pagination-bar.tsx";
import { HighlightedText } from "./highlighted-text.tsx";
import { hitLink } from "./hit-link.ts";
import { useSearch } from "./search-api.ts";
import "./search.css";

const PAGE_SIZE = 20;
const KIND_NAMES: Record<SearchKind, string> = {
  key: "Keys",
  label: "Names (labels)",
  other: "Other texts (descriptions, comments)",
};

/**
 * All results of a search (/search?q=...): filters by application, type and kind (where the match
 * is), discontinued records on request, as of a past moment (`asOf`), paged. Everything is in the
 * address, so a results page can be sent as a link.
 */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const query = params.get("q") ?? "";
  const context = params.get("context");
  const type = params.get("type");
  const kind = params.get("kind") as SearchKind | null;
  const asOf = params.get("asOf");
  const discontinued = params.get("discontinued") === "1";
  const page = Math.max(1, Number(params.get("page")) || 1);
  const searching = query.trim().length >= SEARCH_MIN_CHARS;
  const result = useSearch(
    {
      query,
      pageSize: PAGE_SIZE,
      pageNum: page,
      ...(context ? { contexts: [context] } : {}),
      ...(context && type ? { types: [`${context}/${type}`] } : {}),
      ...(kind && SEARCH_KINDS.includes(kind) ? { kinds: [kind] } : {}),
      ...(discontinued ? { includeDiscontinued: true } : {}),
      ...(asOf ? { asOf } : {}),
    },
    searching,
  );
  // Filters and types offered: those of the unfiltered answer's groups (only what the user may read).
  const all = useSearch({ query, pageSize: 1, perType: true }, searching);
  const groups = all.data?.groups ?? [];
  const contexts = [...new Map(groups.map((g) => [g.context, g.contextUiName])).entries()];

  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === "") next.delete(name);
      else next.set(name, value);
    }
    if (!("page" in changes)) next.delete("page");
    setParams(next);
  };

  const total = result.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <div className="search-results-page" data-testid="search-page">
      <h1 className="h3 mb-3">Search</h1>
      <Form
        className="d-flex flex-wrap gap-2 mb-3 align-items-end"
        onSubmit={(e) => e.preventDefault()}
      >
        <Form.Group controlId="search-page-query">
          <Form.Label>Words</Form.Label>
          <Form.Control
            type="search"
            value={query}
            onChange={(e) => set({ q: e.target.value })}
            data-testid="search-page-query"
          />
        </Form.Group>
        <Form.Group controlId="search-page-context">
          <Form.Label>Application</Form.Label>
          <Form.Select
            value={context ?? ""}
            onChange={(e) => set({ context: e.target.value, type: null })}
            data-testid="search-filter-context"
          >
            <option value="">All</option>
            {contexts.map(([name, uiName]) => (
              <option key={name} value={name}>
                {uiName}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group controlId="search-page-type">
          <Form.Label>Type</Form.Label>
          <Form.Select
            value={type ?? ""}
            disabled={!context}
            onChange={(e) => set({ type: e.target.value })}
            data-testid="search-filter-type"
          >
            <option value="">All</option>
            {groups
              .filter((g) => g.context === context)
              .map((g) => (
                <option key={g.entityType} value={g.entityType}>
                  {g.entityTypeUiName}
                </option>
              ))}
          </Form.Select>
        </Form.Group>
        <Form.Group controlId="search-page-kind">
          <Form.Label>Found in</Form.Label>
          <Form.Select
            value={kind ?? ""}
            onChange={(e) => set({ kind: e.target.value })}
            data-testid="search-filter-kind"
          >
            <option value="">Anywhere</option>
            {SEARCH_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_NAMES[k]}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Check
          id="search-page-discontinued"
          label="Discontinued records too"
          checked={discontinued}
          onChange={(e) => set({ discontinued: e.target.checked ? "1" : null })}
          data-testid="search-filter-discontinued"
        />
      </Form>
      {asOf && (
        <Alert variant="info" data-testid="search-as-of">
          Records as they stood at {new Date(asOf).toLocaleString()}.{" "}
          <Alert.Link as="button" onClick={() => set({ asOf: null })}>
            Search the records as they are now
          </Alert.Link>
        </Alert>
      )}
      {!searching && <p className="text-body-secondary">Type at least two letters or digits.</p>}
      {result.isError && (
        <Alert variant="danger" data-testid="search-error">
          {result.error.message}
        </Alert>
      )}
      {searching && result.isPending && <Spinner role="status" aria-label="Searching" />}
      {result.data && searching && (
        <>
          <p aria-live="polite" data-testid="search-count">
            {total === 0
              ? `Nothing found for '${query}'`
              : `${total}${result.data.more ? "+" : ""} found`}
          </p>
          <ListGroup as="ol" className="mb-3" data-testid="search-page-hits">
            {result.data.hits.map((hit) => (
              <ListGroup.Item
                as="li"
                key={`${hit.context}/${hit.entityType}/${hit.entityKeyID}`}
                data-testid="search-page-hit"
              >
                <Link to={hitLink(hit, asOf)} className="fw-semibold">
                  {hit.label}
                </Link>{" "}
                <span className="text-body-secondary small">
                  {hit.contextUiName} · {hit.entityTypeUiName}
                </span>
                {hit.discontinued && (
                  <Badge bg="secondary" className="ms-2">
                    Discontinued
                  </Badge>
                )}
                <div className="small">
                  {hit.attributeUiName}:{" "}
                  <HighlightedText text={hit.value} highlights={hit.highlights} />
                  {hit.match === "similar" && (
                    <span className="text-body-secondary"> (similar word)</span>
                  )}
                </div>
              </ListGroup.Item>
            ))}
          </ListGroup>
          {pages > 1 && (
            <PaginationBar
              page={page}
              pageCount={pages}
              onPageChange={(p: number) => set({ page: String(p) })}
            />
          )}
        </>
      )}
    </div>
  );
}
