import fs from "node:fs/promises";
import YAML from "yaml";
import { z } from "zod";
import { ConfigError } from "../../config.ts";
import type { Model } from "../../model/model.ts";

const GroupGrants = z
  .object({
    roles: z
      .array(z.object({ context: z.string().min(1), role: z.string().min(1) }).strict())
      .default([]),
    isadmin: z.boolean().default(false),
    isdev: z.boolean().default(false),
  })
  .strict();

/** The mapping file (OIDC_ROLE_MAPPING): per group of the provider, roles per context and flags. */
const RoleMappingFile = z.object({ groups: z.record(z.string().min(1), GroupGrants) }).strict();

export interface RoleGrant {
  context: string;
  role: string;
}

/** What a user's groups give: roles (no duplicates) and the two flags a group may set. */
export interface MappedGrants {
  roles: RoleGrant[];
  isadmin: boolean;
  isdev: boolean;
}

/** The checked mapping, immutable after start; groups are matched exactly (case-sensitive). */
export type RoleMapping = ReadonlyMap<string, Readonly<MappedGrants>>;

/** A mapping file that cannot be used; stops the start like an invalid model. */
export class RoleMappingError extends ConfigError {
  constructor(readonly problems: string[]) {
    super(`The role mapping (OIDC_ROLE_MAPPING) is invalid:\n  ${problems.join("\n  ")}`);
  }
}

/** Reads and checks the mapping file against the model; throws RoleMappingError listing every problem as `file: path: reason`. */
export async function loadRoleMapping(file: string, model: Model): Promise<RoleMapping> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    throw new RoleMappingError([
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code})`,
    ]);
  }
  return parseRoleMapping(file, text, model);
}

/** Parses the text of a mapping file (see loadRoleMapping). */
export function parseRoleMapping(file: string, text: string, model: Model): RoleMapping {
  const doc = YAML.parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0)
    throw new RoleMappingError(doc.errors.map((e) => `${file}: ${e.message.split("\n")[0]}`));
  const parsed = RoleMappingFile.safeParse(doc.toJS() ?? {});
  if (!parsed.success)
    throw new RoleMappingError(
      parsed.error.issues.map((i) => `${file}: ${i.path.join(".") || "(root)"}: ${i.message}`),
    );

  const problems: string[] = [];
  for (const [group, grants] of Object.entries(parsed.data.groups)) {
    grants.roles.forEach(({ context, role }, i) => {
      const where = `${file}: groups.${group}.roles.${i}`;
      const found = model.contexts.find((c) => c.name === context);
      if (!found) {
        const known = model.contexts.map((c) => c.name).join(", ");
        problems.push(`${where}.context: no context '${context}' in the model (known: ${known})`);
      } else if (!found.roles.some((r) => r.name === role)) {
        const known = found.roles.map((r) => r.name).join(", ");
        problems.push(`${where}.role: no role '${role}' in context '${context}' (known: ${known})`);
      }
    });
  }
  if (problems.length > 0) throw new RoleMappingError(problems);
  return new Map(Object.entries(parsed.data.groups));
}

/** What the given groups give together; groups the mapping does not name give nothing. */
export function grantsOf(mapping: RoleMapping, groups: readonly string[]): MappedGrants {
  const roles = new Map<string, RoleGrant>();
  let isadmin = false;
  let isdev = false;
  for (const group of groups) {
    const grants = mapping.get(group);
    if (!grants) continue;
    for (const r of grants.roles) roles.set(`${r.context}\u0000${r.role}`, r);
    isadmin ||= grants.isadmin;
    isdev ||= grants.isdev;
  }
  return { roles: [...roles.values()], isadmin, isdev };
}
