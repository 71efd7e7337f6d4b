import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../../model/load-model.ts";
import type { Model } from "../../model/model.ts";
import { GENERATORS } from "../../records/generators.ts";
import { REPO_ROOT } from "../../testing/test-app.ts";
import { grantsOf, loadRoleMapping, parseRoleMapping, RoleMappingError } from "./role-mapping.ts";

let model: Model;
beforeAll(async () => {
  model = await loadModel(path.join(REPO_ROOT, "model"), new Set(GENERATORS.keys()));
});

const problemsOf = (text: string): string[] => {
  try {
    parseRoleMapping("mapping.yaml", text, model);
  } catch (error) {
    if (error instanceof RoleMappingError) return error.problems;
    throw error;
  }
  return [];
};

describe("the role mapping file", () => {
  it("maps groups to roles per context and to the two flags", () => {
    const mapping = parseRoleMapping(
      "mapping.yaml",
      `groups:
  data-stewards:
    roles: [{ context: reference, role: steward }]
  stewards-too:
    roles: [{ context: reference, role: steward }, { context: Data Dictionary, role: dictionary_viewer }]
  ledgerline-admins:
    isadmin: true
  developers:
    isdev: true
`,
      model,
    );
    expect(grantsOf(mapping, ["data-stewards", "stewards-too", "not-mapped"])).toEqual({
      roles: [
        { context: "reference", role: "steward" },
        { context: "Data Dictionary", role: "dictionary_viewer" },
      ],
      isadmin: false,
      isdev: false,
    });
    expect(grantsOf(mapping, ["ledgerline-admins", "developers"])).toEqual({
      roles: [],
      isadmin: true,
      isdev: true,
    });
    // Group names are matched exactly.
    expect(grantsOf(mapping, ["Developers"]).isdev).toBe(false);
  });

  it("refuses contexts and roles the model does not have, naming file, path and the known ones", () => {
    expect(
      problemsOf(`groups:
  a:
    roles: [{ context: nowhere, role: steward }]
  b:
    roles: [{ context: reference, role: viewer }, { context: reference, role: king }]
`),
    ).toEqual([
      "mapping.yaml: groups.a.roles.0.context: no context 'nowhere' in the model (known: Data Dictionary, reference)",
      "mapping.yaml: groups.b.roles.1.role: no role 'king' in context 'reference' (known: viewer, steward, approver)",
    ]);
  });

  it("refuses unknown keys, such as a super administrator flag", () => {
    const problems = problemsOf("groups:\n  bosses:\n    issuperadmin: true\n");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^mapping\.yaml: groups\.bosses: .*issuperadmin/);
  });

  it("refuses wrong types and YAML errors", () => {
    expect(problemsOf("groups:\n  a:\n    isadmin: yes please\n")[0]).toMatch(
      /^mapping\.yaml: groups\.a\.isadmin: /,
    );
    expect(problemsOf("groups: [")[0]).toMatch(/^mapping\.yaml: /);
    expect(problemsOf("")[0]).toMatch(/^mapping\.yaml: groups: /);
  });

  it("names a file that cannot be read", async () => {
    await expect(loadRoleMapping("/no/such/mapping.yaml", model)).rejects.toThrow(
      "/no/such/mapping.yaml: cannot be read (ENOENT)",
    );
  });
});
