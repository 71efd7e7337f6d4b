import {
  parseThemeChoice,
  resolveTheme,
  THEME_STORAGE_KEY,
  type Theme,
  type ThemeChoice,
} from "./theme-choice.ts";

/**
 * The colour mode of the whole page: the user's choice (remembered in this browser's local
 * storage) resolved against the system's `prefers-color-scheme`, written to <html data-bs-theme>
 * where Bootstrap 5.3 reads it. A store outside React, so that the mode is set before the first
 * render and follows the system (and other tabs) while the page is open.
 */

const darkQuery = () => window.matchMedia("(prefers-color-scheme: dark)");
const listeners = new Set<() => void>();

function readStored(): ThemeChoice {
  try {
    return parseThemeChoice(window.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return "system"; // storage refused (private mode, policies): follow the system
  }
}

let choice: ThemeChoice = "system";

function apply(): void {
  const theme: Theme = resolveTheme(choice, darkQuery().matches);
  document.documentElement.setAttribute("data-bs-theme", theme);
  for (const listener of listeners) listener();
}

/** Sets the mode before the app renders and keeps it in step with the system and other tabs. */
export function startTheme(): void {
  choice = readStored();
  apply();
  darkQuery().addEventListener("change", apply);
  window.addEventListener("storage", (event) => {
    if (event.key !== THEME_STORAGE_KEY) return;
    choice = parseThemeChoice(event.newValue);
    apply();
  });
}

export function themeChoice(): ThemeChoice {
  return choice;
}

export function chooseTheme(next: ThemeChoice): void {
  choice = next;
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, next);
  } catch {
    // not remembered, but shown all the same
  }
  apply();
}

export function subscribeTheme(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
