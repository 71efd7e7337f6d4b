/**
 * A failure to reach or read a source database, worded for users: the cause in plain words and
 * the connection file they chose, never the host, port, user, database, a path or the server's
 * own text. `forAdministrators` adds where the connection went (host, port, database and user,
 * never the password), which those who set the server up need to correct it. The original error
 * is the cause, for the server log.
 */
export class SourceConnectionError extends Error {
  constructor(
    message: string,
    readonly forAdministrators: string,
    options: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * A failure with the connection file's name for everyone, and `where` it points (host, port,
 * database, user) for administrators, with the reason's `detail` for them when it has one.
 */
export function sourceError(
  connection: { fileName: string; where: string },
  what: (file: string) => string,
  reason: string | { words: string; detail: string },
  cause: unknown,
): SourceConnectionError {
  const file = `connection file '${connection.fileName}'`;
  const words = typeof reason === "string" ? reason : reason.words;
  const detail = typeof reason === "string" ? "" : `: ${reason.detail}`;
  return new SourceConnectionError(
    `${what(file)}: ${words}`,
    `${what(`${file} (${connection.where})`)}: ${words}${detail}`,
    { cause },
  );
}

export const codeOf = (error: unknown): string =>
  String((error as { code?: unknown } | null)?.code ?? "");

export const textOf = (error: unknown): string =>
  String((error as { message?: unknown } | null)?.message ?? "");

// Node's codes for a certificate its trusted authorities did not sign.
const UNTRUSTED_CERTIFICATE = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
  "CERT_SIGNATURE_FAILURE",
  "CERT_REJECTED",
]);

/**
 * Plain words for a failure of the network or of TLS, which every technology's driver reports
 * with Node's codes; undefined for the database's own refusals, which each adapter words.
 */
export function transportFailure(code: string): string | undefined {
  if (UNTRUSTED_CERTIFICATE.has(code))
    return "the database server's certificate is not signed by the trusted authority";
  switch (code) {
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return "the database server's certificate is for another host name";
    case "CERT_HAS_EXPIRED":
    case "CERT_NOT_YET_VALID":
      return "the database server's certificate is out of its validity dates";
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "unknown host";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "the host cannot be reached";
    case "ECONNRESET":
      return "the database server closed the connection";
    case "ETIMEDOUT":
      return "timeout: no answer in time";
  }
  return undefined;
}
