import type { EntityRecord, ScalarValue } from "@ledgerline/contract";
import { useNavigate } from "react-router";
import { LIST_PATH } from "../dictionary-texts.ts";
import { useDictionaryDelete, useDictionarySave } from "../use-dictionary-mutations.ts";
import { useFixedExtras } from "../use-fixed-extras.ts";
import { withNotice } from "../use-navigation-notice.ts";

/** What the footer of a system environment or metadata source form runs, and its state. */
export interface RecordForm {
  /** An edit form (a stored record), which offers Delete. */
  editing: boolean;
  /** A save can be sent: the fixed extras are known. */
  ready: boolean;
  saving: boolean;
  deleting: boolean;
  /** The latest failure (save or delete), or why nothing can be saved. */
  error?: string;
  /** Saves the given values (on an edit: the changed ones) with the fixed extras. */
  save(values: Record<string, ScalarValue>): void;
  /** Deletes the record; `done` closes the confirmation when the server refuses. */
  remove(done: () => void): void;
}

/**
 * Saving and deleting the record of a dictionary form. Each success leads back to the list with
 * the server's answer as a toast; a failure stays on the form as its error.
 */
export function useRecordForm(entityType: string, record: EntityRecord | undefined): RecordForm {
  const navigate = useNavigate();
  const extras = useFixedExtras();
  const saving = useDictionarySave();
  const deleting = useDictionaryDelete();
  return {
    editing: record !== undefined,
    ready: extras.extrasFor !== undefined,
    saving: saving.isPending,
    deleting: deleting.isPending,
    error: saving.error?.message ?? deleting.error?.message ?? extras.problem,
    save: (values) => {
      if (!extras.extrasFor) return;
      saving
        .mutateAsync({
          entityType,
          keyId: record?.entityKeyID,
          values,
          extras: extras.extrasFor(record),
        })
        .then((answer) =>
          navigate(LIST_PATH, withNotice({ title: "Saved", body: answer.Msg, variant: "success" })),
        )
        // The failure is shown from the mutation's state.
        .catch(() => {});
    },
    remove: (done) => {
      if (!record) return;
      // mutateAsync: the answer must lead back to the list even if the form is gone by then.
      deleting
        .mutateAsync({ entityType, entityKeyIds: [record.entityKeyID] })
        .then((answer) =>
          navigate(
            LIST_PATH,
            withNotice({ title: "Delete response", body: answer.Msg, variant: "info" }),
          ),
        )
        .catch(done);
    },
  };
}
