import type { EntityList, EntityQuery, EntityRecord, EntityTypeInfo } from "@ledgerline/contract";
import { useQueries, useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { useEntityTypes } from "../../components/entity-types/use-entity-types.ts";
import { recordKeys } from "../../components/records/record-keys.ts";
import {
  type CronCheck,
  checkCron,
  dictionaryKeys,
  fetchConnectionFiles,
} from "./dictionary-api.ts";
import { DICTIONARY, METADATA_SOURCE, SYSTEM_ENVIRONMENT } from "./dictionary-texts.ts";

/**
 * What the user's roles allow on a Data Dictionary type (cancreate, canedit, ...), for hiding what
 * the server would refuse; undefined while the types load or for a type the user may not read.
 */
export function useDictionaryRights(): (typeName: string) => EntityTypeInfo | undefined {
  const types = useEntityTypes(DICTIONARY);
  return (typeName) => types.data?.find((t) => t.name === typeName);
}

/** Curated documentation a save must carry over rather than blank (see use-fixed-extras.ts). */
const CURATED = ["intro", "editiondetail"];

const environmentsQuery: EntityQuery = {
  context: DICTIONARY,
  entityType: SYSTEM_ENVIRONMENT,
  pageSize: 0,
  rowOrders: [{ attribute: "name", asc: true }],
  requestedAttributes: ["name", "description", "technology", "connectionfile", ...CURATED],
};

const sourcesQuery: EntityQuery = {
  context: DICTIONARY,
  entityType: METADATA_SOURCE,
  pageSize: 0,
  rowOrders: [{ attribute: "name", asc: true }],
  requestedAttributes: [
    "application",
    "applicationaspect",
    "systemenvironment",
    "name",
    "description",
    "importfrequency",
    "enableschedule",
    "lastimport",
    "systemenvironment.name",
    "systemenvironment.technology",
    "systemenvironment.connectionfile",
    ...CURATED,
  ],
};

function useList(query: EntityQuery, enabled = true) {
  return useQuery({
    queryKey: recordKeys.list(query),
    queryFn: ({ signal }) => apiPost<EntityList>("/api/entity", query, { signal }),
    staleTime: 0,
    enabled,
  });
}

/** The system environments, by name. */
export const useSystemEnvironments = () => useList(environmentsQuery);

/** The metadata sources, by name, with their system environment's name, technology and file. */
export const useMetadataSources = () => useList(sourcesQuery);

/**
 * The identities already taken, discontinued records included: the server keeps their keys
 * reserved, so a new record with one of them would be refused.
 */
export function useTakenIdentities(entityType: string, attributes: string[], enabled = true) {
  return useList(
    {
      context: DICTIONARY,
      entityType,
      pageSize: 0,
      includeDeleted: true,
      requestedAttributes: attributes,
    },
    enabled,
  );
}

/** One record of the area by key (null when there is no such live record). */
export function useDictionaryRecord(entityType: string, keyId: number) {
  return useQuery({
    queryKey: recordKeys.one(DICTIONARY, entityType, keyId),
    queryFn: async ({ signal }): Promise<EntityRecord | null> => {
      const list = await apiPost<EntityList>(
        "/api/entity",
        { context: DICTIONARY, entityType, entityKeyID: keyId, includeLabels: true, pageSize: 1 },
        { signal },
      );
      return list.data[0] ?? null;
    },
    enabled: Number.isInteger(keyId) && keyId > 0,
    staleTime: 0,
  });
}

/** The connection file names the server offers. */
export function useConnectionFiles() {
  return useQuery({
    queryKey: dictionaryKeys.connectionFiles(),
    queryFn: ({ signal }) => fetchConnectionFiles(signal),
    staleTime: 0,
  });
}

const cronQuery = (text: string) => ({
  queryKey: dictionaryKeys.cron(text),
  queryFn: ({ signal }: { signal: AbortSignal }) => checkCron(text, signal),
  staleTime: 5 * 60_000,
});

/**
 * The server's verdict on a cron text, asked on every change of the text once `ask` holds (a new
 * source's empty text is not asked about before it is touched: the answer would be a refusal no
 * one sees). Answers are kept per text, so an answer for a text typed over is never shown for the
 * current one (SPEC.md section 5).
 */
export function useCronCheck(text: string, ask: boolean) {
  return useQuery({ ...cronQuery(text), enabled: ask });
}

/** The verdicts on several cron texts (the list page checks every source on load). */
export function useCronChecks(texts: string[]): Map<string, CronCheck> {
  const distinct = [...new Set(texts)];
  return useQueries({
    queries: distinct.map(cronQuery),
    combine: (results) => {
      const checks = new Map<string, CronCheck>();
      results.forEach((r, i) => {
        if (r.data) checks.set(distinct[i], r.data);
      });
      return checks;
    },
  });
}
