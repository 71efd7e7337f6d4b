import type {
  DeleteRequest,
  MsgBody,
  SaveRequest,
  SaveResponse,
  ScalarValue,
} from "@ledgerline/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { recordKeys } from "../../components/records/record-keys.ts";
import { waitingKeys } from "../../components/waiting/use-waiting.ts";
import { importMetadataSource, pingMetadataSource } from "./dictionary-api.ts";
import { DICTIONARY } from "./dictionary-texts.ts";

export interface DictionarySave {
  entityType: string;
  /** Set for an update: the record's key; the values then hold the changed attributes only. */
  keyId?: number;
  values: Record<string, ScalarValue>;
  /** The fixed extras of use-fixed-extras.ts. */
  extras: Record<string, ScalarValue>;
}

/** Saves one record of the area with its fixed extras (POST /api/save); every list reloads. */
export function useDictionarySave() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ entityType, keyId, values, extras }: DictionarySave) => {
      const request: SaveRequest =
        keyId === undefined
          ? { context: DICTIONARY, entityType, action: "create", record: { ...values, ...extras } }
          : {
              context: DICTIONARY,
              entityType,
              action: "update",
              record: { entityKeyID: keyId, ...values, ...extras },
            };
      return apiPost<SaveResponse>("/api/save", request);
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: waitingKeys.all });
      return queryClient.invalidateQueries({ queryKey: recordKeys.context(DICTIONARY) });
    },
  });
}

/** Discontinues records (POST /api/delete); the answer's Msg is for the user. */
export function useDictionaryDelete() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: Omit<DeleteRequest, "context">) =>
      apiPost<MsgBody>("/api/delete", { context: DICTIONARY, ...request }),
    // Not awaited: an edit page whose record is gone must not redraw before it navigates away.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: recordKeys.context(DICTIONARY) });
      void queryClient.invalidateQueries({ queryKey: waitingKeys.all });
    },
  });
}

/** Pings a metadata source's database; one per row, so each row's button knows its own state. */
export function usePingSource() {
  return useMutation({ mutationFn: pingMetadataSource });
}

/** Imports a metadata source's catalog; the sources (last import) and data objects reload. */
export function useImportSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importMetadataSource,
    // An import's changes may wait for approval.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: waitingKeys.all });
      return queryClient.invalidateQueries({ queryKey: recordKeys.context(DICTIONARY) });
    },
  });
}
