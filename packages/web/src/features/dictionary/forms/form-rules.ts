import type { CronCheck } from "../dictionary-api.ts";
import { TEXTS } from "../dictionary-texts.ts";

/** A form's problems by field; a field without an entry is valid. */
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export interface EnvironmentValues {
  name: string;
  description: string;
  technology: string;
  connectionfile: string;
}

/**
 * SPEC.md section 5 'New/Edit system environment': name not empty and not another system
 * environment's (checked on create only: it cannot change), description not empty, technology
 * and connection file chosen.
 */
export function environmentErrors(
  values: EnvironmentValues,
  takenNames: ReadonlySet<string> | null,
): FieldErrors<keyof EnvironmentValues> {
  const errors: FieldErrors<keyof EnvironmentValues> = {};
  const name = values.name.trim();
  if (takenNames !== null) {
    if (name === "") errors.name = TEXTS.required;
    else if (takenNames.has(name)) errors.name = TEXTS.nameTaken;
  }
  if (values.description.trim() === "") errors.description = TEXTS.required;
  if (values.technology === "") errors.technology = TEXTS.required;
  if (values.connectionfile === "") errors.connectionfile = TEXTS.required;
  return errors;
}

export interface SourceValues {
  /** Key ids of the three identifying references, as text ("" when none is chosen). */
  application: string;
  applicationaspect: string;
  systemenvironment: string;
  name: string;
  description: string;
  importfrequency: string;
  enableschedule: boolean;
}

export type SourceField = keyof SourceValues | "identity";

/** The text naming a combination of the three identifying references. */
export const identityKey = (application: unknown, aspect: unknown, environment: unknown) =>
  `${application}/${aspect}/${environment}`;

/**
 * SPEC.md section 5 'New/Edit metadata source': on create the three references are chosen and
 * their combination is not taken yet; always name and description not empty and the cron valid.
 * `cron` undefined means the server's answer for the current text is still awaited.
 */
export function sourceErrors(
  values: SourceValues,
  takenIdentities: ReadonlySet<string> | null,
  cron: CronCheck | undefined,
): FieldErrors<SourceField> {
  const errors: FieldErrors<SourceField> = {};
  if (takenIdentities !== null) {
    const refs = ["application", "applicationaspect", "systemenvironment"] as const;
    for (const ref of refs) if (values[ref] === "") errors[ref] = TEXTS.required;
    const key = identityKey(values.application, values.applicationaspect, values.systemenvironment);
    if (refs.every((ref) => values[ref] !== "") && takenIdentities.has(key))
      errors.identity = TEXTS.sourceTaken;
  }
  if (values.name.trim() === "") errors.name = TEXTS.required;
  if (values.description.trim() === "") errors.description = TEXTS.required;
  if (cron === undefined) errors.importfrequency = "checking…";
  else if (!cron.valid) errors.importfrequency = TEXTS.invalidCron(cron.message);
  return errors;
}

/** True when no field has a problem. */
export const isValid = (errors: FieldErrors<string>) => Object.keys(errors).length === 0;
