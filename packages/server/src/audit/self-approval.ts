import path from "node:path";
import type { Db } from "../db/connection.ts";
import type { Model } from "../model/model.ts";
import { lastSelfApprovalSettings, lockSelfApprovalCheck } from "./audit.repository.ts";
import { recordSecurityEvent, SERVER_ORIGIN } from "./audit.service.ts";

/** How the audit trail names an entity type whose self-approval setting it records. */
export function selfApprovalSubject(context: string, entityType: string): string {
  return `${context}/${entityType}`;
}

/**
 * Records, at start, each entity type whose self-approval setting (from the model files) differs
 * from the one last recorded; a type never recorded counts as not allowing it (the model's default),
 * so the first start records every type that allows it. Answers how many were recorded.
 */
export async function recordSelfApprovalChanges(db: Db, model: Model): Promise<number> {
  return db.transaction().execute(async (tx) => {
    await lockSelfApprovalCheck(tx);
    const last = await lastSelfApprovalSettings(tx);
    let recorded = 0;
    for (const context of model.contexts)
      for (const type of context.entityTypes) {
        const subject = selfApprovalSubject(context.name, type.name);
        const before = last.get(subject) ?? false;
        if (type.selfApproval === before) continue;
        await recordSecurityEvent(tx, {
          kind: "self-approval-changed",
          actor: null,
          subject,
          ip: SERVER_ORIGIN,
          detail: { selfApproval: type.selfApproval, before, file: path.basename(context.file) },
        });
        recorded += 1;
      }
    return recorded;
  });
}
