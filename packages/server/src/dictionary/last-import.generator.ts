import type { ScalarValue } from "@ledgerline/contract";
import type { GeneratorInput } from "../records/generator.ts";
import { lastRuns } from "./import-runs.repository.ts";

function stamp(date: Date): string {
  return date.toISOString().slice(0, 16).replace("T", " ");
}

/** The `lastimport` of metadata sources: when their latest import ran and how it ended. */
export async function lastImport({ db, rows }: GeneratorInput): Promise<ScalarValue[]> {
  const runs = new Map(
    (
      await lastRuns(
        db,
        rows.map((r) => r.entityKeyID),
      )
    ).map((r) => [r.metadata_source_id, r]),
  );
  return rows.map((r) => {
    const run = runs.get(r.entityKeyID);
    if (!run) return null;
    if (run.outcome === "running") return `${stamp(run.started_at)} UTC running`;
    return `${stamp(run.finished_at ?? run.started_at)} UTC ${run.outcome === "succeeded" ? "ok" : `failed: ${run.message ?? ""}`}`;
  });
}
