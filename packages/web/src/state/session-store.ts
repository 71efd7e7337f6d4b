import type { Context, Profile } from "@ledgerline/contract";
import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import { emptySession, readStoredSession, type StoredSession } from "./stored-session.ts";

/** The only global client state: who is signed in and which application (context) is chosen. */
export interface SessionState {
  profile: Profile | null;
  /** Name of the selected context, or null when none is chosen. */
  context: string | null;
  contextOptions: Context[];
  /**
   * The user asked to sign out (set until the next sign-in): the move to /login that follows is
   * not a session that ended under a page, to be returned to after signing in again.
   */
  signingOut: boolean;
  setProfile: (profile: Profile) => void;
  /** Forgets profile, selection and options (logout, any 401). */
  clearSession: () => void;
  beginSignOut: () => void;
  selectContext: (name: string | null) => void;
  /** Takes a freshly loaded list: drops a selection not in it, picks the only one if single. */
  applyContextList: (list: Context[]) => void;
  /** Empties the options when the list could not be loaded. */
  clearContextOptions: () => void;
}

export const SESSION_STORAGE_KEY = "ledgerline.session";

export const useSessionStore = create<SessionState>()(
  persist(
    (set) => ({
      ...emptySession,
      signingOut: false,
      // Another user's selection and options must not carry over to this one.
      setProfile: (profile) =>
        set((state) =>
          state.profile?.username === profile.username
            ? { profile, signingOut: false }
            : { ...emptySession, profile, signingOut: false },
        ),
      clearSession: () => set(emptySession),
      beginSignOut: () => set({ signingOut: true }),
      selectContext: (context) => set({ context }),
      applyContextList: (list) =>
        set((state) => {
          if (list.length === 1) return { contextOptions: list, context: list[0].name };
          const known = list.some((c) => c.name === state.context);
          return { contextOptions: list, context: known ? state.context : null };
        }),
      clearContextOptions: () => set({ contextOptions: [] }),
    }),
    {
      name: SESSION_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => window.localStorage),
      partialize: ({ profile, context, contextOptions }): StoredSession => ({
        profile,
        context,
        contextOptions,
      }),
      merge: (persisted, current) => ({ ...current, ...readStoredSession(persisted) }),
    },
  ),
);

// Keep tabs in step: a logout or context change in one tab shows in the others.
window.addEventListener("storage", (event) => {
  if (event.key === SESSION_STORAGE_KEY) void useSessionStore.persist.rehydrate();
});

/** The signed-in user's profile, or null. */
export const useProfile = (): Profile | null => useSessionStore((s) => s.profile);

/** Name of the selected context, or null. Screens key their selections on it. */
export const useSelectedContext = (): string | null => useSessionStore((s) => s.context);

/** The contexts the user may choose from, as last loaded. */
export const useContextOptions = (): Context[] => useSessionStore((s) => s.contextOptions);
