import { useSyncExternalStore } from "react";
import NavDropdown from "react-bootstrap/NavDropdown";
import { THEME_CHOICES, THEME_LABELS, type ThemeChoice } from "./theme-choice.ts";
import { chooseTheme, subscribeTheme, themeChoice } from "./theme-store.ts";

const ICONS: Record<ThemeChoice, string> = {
  light: "bi-sun",
  dark: "bi-moon-stars",
  system: "bi-circle-half",
};

/** The user menu's 'Theme' choices: Light, Dark or System (the default), remembered. */
export function ThemeMenuItems() {
  const choice = useSyncExternalStore(subscribeTheme, themeChoice);
  return (
    <>
      <NavDropdown.ItemText className="small fw-semibold">Theme</NavDropdown.ItemText>
      {THEME_CHOICES.map((option) => (
        <NavDropdown.Item
          key={option}
          as="button"
          type="button"
          // Not the 'active' prop: inside a Nav it adds aria-selected, which a menu item may not carry.
          className={option === choice ? "active" : undefined}
          aria-current={option === choice ? "true" : undefined}
          aria-label={`${THEME_LABELS[option]} theme`}
          onClick={() => chooseTheme(option)}
          data-testid={`theme-${option}`}
        >
          <i className={`bi ${ICONS[option]} me-2`} aria-hidden="true" />
          {THEME_LABELS[option]}
        </NavDropdown.Item>
      ))}
    </>
  );
}
