import { useSyncExternalStore } from "react";
import NavDropdown from "react-bootstrap/NavDropdown";
import { THEME_CHOICES, THEME_LABELS, type ThemeChoice } from "./theme-choice.ts";
import { chooseTheme, currentTheme, subscribeTheme, themeChoice } from "./theme-store.ts";

const ICONS: Record<ThemeChoice, string> = {
  light: "bi-sun",
  dark: "bi-moon-stars",
  system: "bi-circle-half",
};

/** The navigation bar's 'Theme' menu: Light, Dark or System (the default), remembered. */
export function ThemeMenu() {
  const choice = useSyncExternalStore(subscribeTheme, themeChoice);
  const theme = useSyncExternalStore(subscribeTheme, currentTheme);
  const title = (
    <>
      <i className={`bi ${ICONS[choice]} fs-5`} aria-hidden="true" />
      <span className="visually-hidden">Theme: {THEME_LABELS[choice]}</span>
    </>
  );
  return (
    <NavDropdown
      title={title}
      id="nav-theme-menu"
      align="end"
      data-testid="nav-theme-menu"
      data-theme={theme}
    >
      {THEME_CHOICES.map((option) => (
        <NavDropdown.Item
          key={option}
          as="button"
          type="button"
          // Not the 'active' prop: inside a Nav it adds aria-selected, which a menu item may not carry.
          className={option === choice ? "active" : undefined}
          aria-current={option === choice ? "true" : undefined}
          onClick={() => chooseTheme(option)}
          data-testid={`theme-${option}`}
        >
          <i className={`bi ${ICONS[option]} me-2`} aria-hidden="true" />
          {THEME_LABELS[option]}
        </NavDropdown.Item>
      ))}
    </NavDropdown>
  );
}
