import Form from "react-bootstrap/Form";
import { useSearchParams } from "react-router";
import { useContextOptions, useSelectedContext, useSessionStore } from "../state/session-store.ts";

/** The 'Application' label and the small context selector of the navigation bar. */
export function ContextSelect() {
  const options = useContextOptions();
  const context = useSelectedContext();
  const selectContext = useSessionStore((s) => s.selectContext);
  const [params, setParams] = useSearchParams();
  // The address's type, change set or moment belonged to the application left behind.
  const switchTo = (name: string | null) => {
    selectContext(name);
    if (params.toString() !== "") setParams(new URLSearchParams(), { replace: true });
  };
  // A selection missing from the options (list failed to load) shows as the placeholder.
  const value = options.some((o) => o.name === context) ? (context ?? "") : "";

  return (
    <div className="d-flex align-items-center gap-2">
      <label htmlFor="context-select" className="navbar-text text-nowrap py-0">
        Application
      </label>
      <Form.Select
        id="context-select"
        data-testid="context-select"
        size="sm"
        className="w-auto"
        value={value}
        disabled={options.length <= 1}
        onChange={(event) => switchTo(event.target.value || null)}
      >
        {value === "" && (
          <option value="" disabled>
            Select an application
          </option>
        )}
        {options.map((option) => (
          <option key={option.name} value={option.name}>
            {option.uiName}
          </option>
        ))}
      </Form.Select>
    </div>
  );
}
