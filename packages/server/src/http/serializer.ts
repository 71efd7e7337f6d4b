import type { FastifySerializerCompiler } from "fastify/types/schema.js";
import { serializerCompiler } from "fastify-type-provider-zod";
import type { z } from "zod";

/** Whether a value fits the schema exactly: the right types, and no field the schema does not declare. */
type Check = (value: unknown) => boolean;

type Def = z.core.$ZodTypeDef & Record<string, unknown>;

const defOf = (schema: unknown): Def | undefined =>
  (schema as Partial<z.core.$ZodType> | undefined)?._zod?.def as Def | undefined;

/** Fields an object may leave out (or hold undefined in). */
const mayBeAbsent = (schema: unknown) =>
  ["optional", "any", "unknown"].includes(defOf(schema)?.type ?? "");

/**
 * A check for the schema kinds answers use, or undefined for any other kind (or any check, such as
 * a length or a format), which then keeps zod's own serializer.
 */
function checkOf(schema: unknown): Check | undefined {
  const def = defOf(schema);
  if (!def || (def.checks as unknown[] | undefined)?.length || "format" in def) return undefined;
  switch (def.type) {
    case "string":
      return (v) => typeof v === "string";
    case "number":
      return (v) => typeof v === "number" && Number.isFinite(v);
    case "boolean":
      return (v) => typeof v === "boolean";
    case "null":
      return (v) => v === null;
    case "any":
    case "unknown":
      return () => true;
    case "literal":
      return (v) => (def.values as unknown[]).includes(v);
    case "enum": {
      const values = Object.values(def.entries as Record<string, unknown>);
      return (v) => values.includes(v);
    }
    case "optional": // an absent field is let through by its object
      return checkOf(def.innerType);
    case "nullable": {
      const inner = checkOf(def.innerType);
      return inner && ((v) => v === null || inner(v));
    }
    case "union": {
      const options = (def.options as unknown[]).map(checkOf);
      if (options.some((o) => o === undefined)) return undefined;
      return (v) => (options as Check[]).some((option) => option(v));
    }
    case "array": {
      const element = checkOf(def.element);
      return element && ((v) => Array.isArray(v) && v.every(element));
    }
    case "record": {
      const item = checkOf(def.valueType);
      if (defOf(def.keyType)?.type !== "string" || !checkOf(def.keyType) || !item) return undefined;
      return (v) => {
        if (!isPlainObject(v)) return false;
        for (const key in v) if (!item(v[key])) return false;
        return true;
      };
    }
    case "object":
      return def.catchall ? undefined : objectCheck(def.shape as Record<string, unknown>);
    default:
      return undefined;
  }
}

function objectCheck(shape: Record<string, unknown>): Check | undefined {
  const fields = Object.entries(shape).map(([name, schema]) => ({
    name,
    check: checkOf(schema),
    optional: mayBeAbsent(schema),
  }));
  if (fields.some((f) => f.check === undefined)) return undefined;
  return (v) => {
    if (!isPlainObject(v)) return false;
    let present = 0;
    for (const field of fields) {
      const value = v[field.name];
      if (value === undefined) {
        if (!field.optional) return false;
      } else if (!(field.check as Check)(value)) return false;
      if (Object.hasOwn(v, field.name)) present++;
    }
    let own = 0;
    for (const key in v) if (Object.hasOwn(v, key)) own++;
    return own === present;
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks each answer against its zod schema in place and, when it fits exactly (every declared field
 * of the right type, no other field), writes it as it is. zod's serializer builds a checked copy of
 * the whole answer first, which was half of a list call's serialisation time. An answer with a field
 * the schema does not declare, or one that does not fit, and a schema with kinds or checks this
 * check does not know, go through zod's serializer, which leaves the field out or fails as before.
 */
export const answerSerializer: FastifySerializerCompiler<unknown> = (route) => {
  const checked = serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);
  const schema = route.schema as { properties?: unknown };
  const fits = checkOf(
    schema && "properties" in schema && schema.properties ? schema.properties : schema,
  );
  return fits ? (data) => (fits(data) ? JSON.stringify(data) : checked(data)) : checked;
};
