import { type AttributeInfo, type EntityTypeInfo, PATH_ATTRIBUTE } from "@ledgerline/contract";

/**
 * The 'Path' column a tree's table and its 'Generate xlsx' may add (`World / Europe / Western
 * Europe`): the list's `_path`, hidden until chosen in the Columns menu.
 */
export const PATH_COLUMN: AttributeInfo = {
  name: PATH_ATTRIBUTE,
  uiName: "Path",
  uiDescription: "The record's place in the tree, from its root",
  uiSequence: Number.MAX_SAFE_INTEGER,
  dataType: "String",
  nullable: true,
  identity: false,
  generated: false,
  formula: "",
  editable: false,
  filter: false,
  rules: [],
};

/** The columns of a type's table: its attributes, and for a tree the Path. */
export function tableColumns(type: EntityTypeInfo): readonly AttributeInfo[] {
  return type.hierarchy ? [...type.attributes, PATH_COLUMN] : type.attributes;
}
