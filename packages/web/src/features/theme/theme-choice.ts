/** What the user chose in the theme menu: a fixed mode, or whatever the system prefers. */
export type ThemeChoice = "light" | "dark" | "system";

/** The colour mode Bootstrap shows (its data-bs-theme attribute). */
export type Theme = "light" | "dark";

export const THEME_CHOICES: readonly ThemeChoice[] = ["light", "dark", "system"];

export const THEME_LABELS: Record<ThemeChoice, string> = {
  light: "Light",
  dark: "Dark",
  system: "System",
};

/** The local-storage key the choice is remembered under, per browser. */
export const THEME_STORAGE_KEY = "ledgerline.theme";

/** A stored value read back: anything unknown (or nothing) follows the system. */
export function parseThemeChoice(stored: string | null): ThemeChoice {
  return THEME_CHOICES.find((choice) => choice === stored) ?? "system";
}

export function resolveTheme(choice: ThemeChoice, systemPrefersDark: boolean): Theme {
  if (choice === "system") return systemPrefersDark ? "dark" : "light";
  return choice;
}
