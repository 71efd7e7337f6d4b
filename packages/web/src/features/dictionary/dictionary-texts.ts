import { DATA_DICTIONARY_CONTEXT } from "@ledgerline/contract";

/** Every call of this area is made in the 'Data Dictionary' context. */
export const DICTIONARY = DATA_DICTIONARY_CONTEXT;
export const SYSTEM_ENVIRONMENT = "systemenvironment";
export const METADATA_SOURCE = "metadatasource";
/** An import writes data objects (and their elements): it needs the right to edit them. */
export const DATA_OBJECT = "dataobject";
export const LIST_PATH = "/system-environment";

/** The technologies a system environment can have, each read by its adapter on the server. */
export const TECHNOLOGIES = ["postgres", "mariadb", "mysql"] as const;

/** The texts users read, as SPEC.md sections 2 and 5 give them. */
export const TEXTS = {
  required: "required field",
  nameTaken: "A system environment with that name already exists",
  sourceTaken: "a metadata source with this set of identifying attributes already exists",
  invalidCron: (message: string) => `not a valid cron string (${message})`,
  addEnvironmentFirst: "add a system environment first",
  notAllowed: (what: string) => `your roles do not allow creating ${what}`,
  environmentHasSources:
    "Cannot delete this system environment as it has dependant metadata sources",
  confirmDeleteEnvironment: "Please confirm that you want to delete this system environment",
  confirmDeleteSource: "Please confirm that you want to delete this metadata source",
} as const;
