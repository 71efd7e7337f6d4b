/** SPEC.md section 2: the question before removing a record, in the explorer and the generic viewer. */
export const DELETE_CONFIRMATION =
  "Please confirm that you want to remove the selected item from the data repository. (removed items can still be viewed)";
