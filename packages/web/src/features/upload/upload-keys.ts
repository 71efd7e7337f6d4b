/** Every query of the upload screen starts with "upload"; an upload refreshes everything else. */
export const uploadKeys = {
  all: ["upload"] as const,
  layouts: (context: string) => ["upload", "layouts", context] as const,
  typeRights: (context: string) => ["upload", "type-rights", context] as const,
};
