import { expect } from "@playwright/test";
import ExcelJS from "exceljs";
import { type Person, personWithRole, post, signedIn } from "./api.ts";
import { admin, REFERENCE } from "./users.ts";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/**
 * Uploads new countries through the Countries layout as `person` (their changes wait for
 * approval) and answers the upload id. Test countries use US dollars and are no EU members, as
 * the explorer spec expects of any that get approved.
 */
export async function uploadCountries(
  person: Person,
  fileName: string,
  codes: string[],
): Promise<number> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Countries");
  sheet.addRow(["ISO2", "Name", "Currency", "Population", "Joined EU", "EU member"]);
  for (const iso2 of codes) sheet.addRow([iso2, `Testland ${iso2}`, "USD", 1000, null, false]);
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  const response = await person.api.post("/api/upload", {
    multipart: {
      context: REFERENCE.name,
      layout: "countries",
      uploadfile: { name: fileName, mimeType: XLSX, buffer },
    },
  });
  const text = await response.text();
  expect(response.ok(), text).toBe(true);
  expect(text).toContain(`${codes.length} added`);
  return Number(response.headers()["x-upload-id"]);
}

/** Rejects whatever of an upload is still pending, so other specs' counts stay as they were. */
export async function rejectUpload(approver: Person, uploadId: number): Promise<void> {
  const sets = await post<{ kind: string; id: number }[]>(approver.api, "/api/pendingchangesets", {
    context: REFERENCE.name,
    entityType: "country",
  });
  if (!sets.some((s) => s.kind === "upload" && s.id === uploadId)) return;
  await post(approver.api, "/api/reject", {
    context: REFERENCE.name,
    entityType: "country",
    uploadId,
  });
}

/** A steward and an approver of 'Reference Data' made for one spec, and the key of US dollars. */
export interface ReferenceTeam {
  steward: Person;
  approver: Person;
  usd: number;
}

/** Makes the spec's steward and approver (`<prefix>-<role>-<run>`) as the administrator. */
export async function referenceTeam(prefix: string, run: string): Promise<ReferenceTeam> {
  const adminApi = await signedIn(admin.username, admin.password);
  const person = (role: string) =>
    personWithRole(adminApi, {
      username: `${prefix}-${role}-${run.toLowerCase()}`,
      context: REFERENCE.name,
      role,
    });
  const steward = await person("steward");
  const approver = await person("approver");
  const list = await post<{ data: { entityKeyID: number }[] }>(adminApi, "/api/entity", {
    context: REFERENCE.name,
    entityType: "currency",
    rowConstraints: [{ attribute: "code", operator: "=", values: ["USD"] }],
  });
  await adminApi.dispose();
  return { steward, approver, usd: list.data[0].entityKeyID };
}
