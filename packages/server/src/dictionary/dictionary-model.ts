import { DATA_DICTIONARY_CONTEXT } from "@ledgerline/contract";
import { NotFoundError } from "../errors.ts";
import type { ContextModel, EntityType, Model } from "../model/model.ts";
import { findContext, findEntityType } from "../model/model.ts";

const TYPES = [
  "systemenvironment",
  "metadatasource",
  "dataobject",
  "dataelement",
  "lineage",
] as const;
type DictionaryTypeName = (typeof TYPES)[number];

/** The 'Data Dictionary' context of the model, or 404 when the model has none. */
export function dictionaryContext(model: Model): ContextModel {
  const context = findContext(model, DATA_DICTIONARY_CONTEXT);
  if (!context) throw new NotFoundError(`The model has no '${DATA_DICTIONARY_CONTEXT}' context`);
  return context;
}

/** The dictionary's entity types the server code relies on. */
export function dictionaryTypes(context: ContextModel): Record<DictionaryTypeName, EntityType> {
  return Object.fromEntries(
    TYPES.map((name) => {
      const type = findEntityType(context, name);
      if (!type) throw new NotFoundError(`The '${context.name}' model has no '${name}' type`);
      return [name, type];
    }),
  ) as Record<DictionaryTypeName, EntityType>;
}
