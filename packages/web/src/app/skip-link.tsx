import type { MouseEvent } from "react";

/** The id of the element that holds each screen (layout.tsx). */
export const MAIN_ID = "main-content";

/**
 * 'Skip to content': the first thing the Tab key reaches on every page, shown only while it has
 * the focus; it moves the focus past the navigation bar to the screen (WCAG 2.4.1).
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    // Focus without a '#' in the address: the router would take that for a navigation.
    event.preventDefault();
    document.getElementById(MAIN_ID)?.focus();
  };
  return (
    <a href={`#${MAIN_ID}`} className="skip-link" onClick={skip} data-testid="skip-link">
      Skip to content
    </a>
  );
}
