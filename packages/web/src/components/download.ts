/** The file name of a Content-Disposition header, or a <fallback>_<timestamp>.xlsx one. */
export function attachmentName(header: string | null, fallback = "Report"): string {
  const match = header?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  if (match) return decodeURIComponent(match[1]);
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${fallback}_${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}_${now.getHours()}-${pad(now.getMinutes())}-${pad(now.getSeconds())}.xlsx`;
}

/** Hands a downloaded file to the browser as if the user had clicked a link to it. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
