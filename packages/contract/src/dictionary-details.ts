import { z } from "zod";

/** POST /data-dictionary/object-details: the data object whose profiles and lineage are asked. */
export const ObjectDetailsRequest = z.object({ EntityKeyID: z.number().int().positive() });
export type ObjectDetailsRequest = z.infer<typeof ObjectDetailsRequest>;

/** A data object named in a lineage: its key (for a link), schema, name and kind. */
export const LinkedDataObject = z.object({
  entityKeyID: z.number().int(),
  schema: z.string(),
  name: z.string(),
  kind: z.string(),
});
export type LinkedDataObject = z.infer<typeof LinkedDataObject>;

/** Where a column profile's figures come from; `sensitive`: its values are never read. */
export const ProfileMethod = z.enum(["statistics", "sample", "sensitive", "none"]);
export type ProfileMethod = z.infer<typeof ProfileMethod>;

export const ColumnProfileBody = z.object({
  column: z.string(),
  method: ProfileMethod,
  rowCount: z.number().nullable(),
  /** 0 to 1. */
  nullShare: z.number().nullable(),
  distinctCount: z.number().nullable(),
  minValue: z.string().nullable(),
  maxValue: z.string().nullable(),
  avgLength: z.number().nullable(),
  /** The most common values with their share (0 to 1), most common first. */
  topValues: z.array(z.object({ value: z.string(), share: z.number() })).nullable(),
});
export type ColumnProfileBody = z.infer<typeof ColumnProfileBody>;

/** What a view reads: `reads` is schema.name; `object` the data object read, when documented. */
export const UpstreamLineage = z.object({
  reads: z.string(),
  object: LinkedDataObject.nullable(),
  columns: z.string().nullable(),
});
export type UpstreamLineage = z.infer<typeof UpstreamLineage>;

/** A view that reads the object, and the object's columns it reads. */
export const DownstreamLineage = z.object({
  view: LinkedDataObject,
  columns: z.string().nullable(),
});
export type DownstreamLineage = z.infer<typeof DownstreamLineage>;

/**
 * A data object's column profiles, from its source's latest import that took any (`profiledAt`,
 * null without any), in the order of its columns; its indexes (one line each, by name) and a
 * view's definition; and its lineage in the approved dictionary: how a view's reads were found or
 * why not (`lineage`), upstream and downstream.
 */
export const ObjectDetailsResponse = z.object({
  object: LinkedDataObject.extend({
    lineage: z.string().nullable(),
    definition: z.string().nullable(),
    indexes: z.array(z.string()),
  }),
  profiledAt: z.string().nullable(),
  profiles: z.array(ColumnProfileBody),
  upstream: z.array(UpstreamLineage),
  downstream: z.array(DownstreamLineage),
});
export type ObjectDetailsResponse = z.infer<typeof ObjectDetailsResponse>;
