import type { ContextRights } from "../admin/permissions.ts";
import { requireTypePermission } from "../admin/permissions.ts";
import { ForbiddenError } from "../errors.ts";
import type { EntityType } from "../model/model.ts";

/**
 * Why the caller may not upload with 'Approve everything' into the type, or undefined when they
 * may: it approves the uploader's own changes, so it needs the approve right and, where the
 * type's uploads wait for approval, a type that allows self-approval (four eyes otherwise).
 */
export function approveEverythingRefusal(
  rights: ContextRights,
  type: EntityType,
): string | undefined {
  if (!rights.flagsOf(type.name).canapprove) return "Only approvers may use 'Approve everything'";
  if (type.approval.upload && !type.selfApproval)
    return `'Approve everything' would approve your own changes, and ${type.uiName} does not allow self-approval`;
  return undefined;
}

/**
 * The checks an upload passes before its file is read: create or edit on the type (what each row
 * needs is checked once the rows are classified, checkProposal), and 'Approve everything' only
 * where approveEverythingRefusal has nothing to say.
 */
export function checkUploadRights(
  rights: ContextRights,
  type: EntityType,
  options: { approveEverything: boolean },
): void {
  const flags = rights.flagsOf(type.name);
  if (!flags.cancreate && !flags.canedit) requireTypePermission(rights, type.name, "edit");
  const refusal = options.approveEverything ? approveEverythingRefusal(rights, type) : undefined;
  if (refusal) throw new ForbiddenError(refusal);
}
