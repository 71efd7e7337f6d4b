/** The people the tests sign in as; global-setup.ts creates them in a fresh database. */
export interface TestUser {
  username: string;
  password: string;
  name: string;
  email: string;
  /** Roles to grant, per context name. */
  roles: { context: string; role: string }[];
}

export const REFERENCE = { name: "reference", uiName: "Reference Data" } as const;
export const DICTIONARY = { name: "Data Dictionary", uiName: "Data Dictionary" } as const;

/** The first super administrator, created by the server itself from ADMIN_PASSWORD (DEMO=1 gives every role). */
export const admin = {
  username: "admin",
  password: "admin-password-1",
} as const;

/** A viewer of exactly one context: the selector picks it and is disabled. */
export const solo: TestUser = {
  username: "solo",
  password: "solo-password-1",
  name: "Solo Viewer",
  email: "solo@example.com",
  roles: [{ context: REFERENCE.name, role: "viewer" }],
};

/** Signed in, but without any role: no context to choose. */
export const norole: TestUser = {
  username: "norole",
  password: "norole-password-1",
  name: "No Role",
  email: "norole@example.com",
  roles: [],
};

/** Roles in both contexts, but neither administrator nor developer. */
export const plain: TestUser = {
  username: "plain",
  password: "plain-password-1",
  name: "Plain User",
  email: "plain@example.com",
  roles: [
    { context: REFERENCE.name, role: "steward" },
    { context: DICTIONARY.name, role: "dictionary_editor" },
  ],
};

/** Reads the data dictionary and changes nothing in it. */
export const dictionaryReader: TestUser = {
  username: "ddreader",
  password: "ddreader-password-1",
  name: "Dictionary Reader",
  email: "ddreader@example.com",
  roles: [{ context: DICTIONARY.name, role: "dictionary_viewer" }],
};

export const cliUsers: TestUser[] = [solo, norole, plain, dictionaryReader];
