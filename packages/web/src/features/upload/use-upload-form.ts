import type { FileLayoutInfo } from "@ledgerline/contract";
import { useState } from "react";
import { isXlsxName, layoutDefaults, NO_FLAGS, type UploadFlags } from "./upload-model.ts";

/** The upload form's own state: layout, file, option flags, and a way to clear it all. */
export function useUploadForm(layouts: readonly FileLayoutInfo[]) {
  const [layoutName, setLayoutName] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [flags, setFlags] = useState<UploadFlags>(NO_FLAGS);
  // Bumped on reset: remounts the file input, the only way to empty a file chooser.
  const [resetCount, setResetCount] = useState(0);
  const layout = layouts.find((l) => l.name === layoutName);

  const chooseLayout = (name: string) => {
    setLayoutName(name);
    setFlags(layoutDefaults(layouts.find((l) => l.name === name)));
  };

  const chooseFile = (chosen: File | null) => {
    if (chosen && !isXlsxName(chosen.name)) {
      setFile(null);
      setFileError(`'${chosen.name}' is not an .xlsx file. Only .xlsx workbooks can be uploaded.`);
    } else {
      setFile(chosen);
      setFileError(null);
    }
  };

  const setFlag = (name: keyof UploadFlags, value: boolean) =>
    setFlags((current) => ({ ...current, [name]: value }));

  const reset = () => {
    setLayoutName("");
    setFile(null);
    setFileError(null);
    setFlags(NO_FLAGS);
    setResetCount((n) => n + 1);
  };

  return {
    layout,
    layoutName: layout ? layoutName : "",
    file,
    fileError,
    flags,
    resetCount,
    chooseLayout,
    chooseFile,
    setFlag,
    reset,
  };
}

export type UploadFormState = ReturnType<typeof useUploadForm>;
