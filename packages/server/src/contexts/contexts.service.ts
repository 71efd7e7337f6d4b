import type { Context } from "@ledgerline/contract";
import { contextsOfUser } from "../admin/roles.repository.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import type { Db } from "../db/connection.ts";
import { ForbiddenError, NotFoundError } from "../errors.ts";
import { findContext, type Model } from "../model/model.ts";

function byUiName(a: Context, b: Context): number {
  return a.uiName.localeCompare(b.uiName);
}

/** Every context of the model, ordered by uiName. */
export function allContexts(model: Model): Context[] {
  return model.contexts.map((c) => ({ name: c.name, uiName: c.uiName })).sort(byUiName);
}

/** The contexts in which the user holds at least one role. */
export async function contextsForUser(db: Db, model: Model, user: CurrentUser): Promise<Context[]> {
  const held = new Set(await contextsOfUser(db, user.userId));
  return allContexts(model).filter((c) => held.has(c.name));
}

/** One context, if it exists and the user holds a role in it. */
export async function contextForUser(
  db: Db,
  model: Model,
  user: CurrentUser,
  name: string,
): Promise<Context> {
  const context = findContext(model, name);
  if (!context) throw new NotFoundError(`Unknown application '${name}'`);
  const held = await contextsOfUser(db, user.userId);
  if (!held.includes(name)) throw new ForbiddenError(`You have no role in '${context.uiName}'`);
  return { name: context.name, uiName: context.uiName };
}
