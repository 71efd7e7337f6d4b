import type { OidcErrorCode } from "@ledgerline/contract";
import { AuthorizationResponseError, ClientError, ResponseBodyError } from "openid-client";

/** A company sign-in refused for a reason the login page can name; the cause goes to the log only. */
export class OidcRefusal extends Error {
  constructor(
    readonly code: OidcErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const CLAIM_CODES: Record<string, OidcErrorCode> = {
  aud: "audience",
  azp: "audience",
  iss: "issuer",
  nonce: "nonce",
};

/** The messages of an error and its causes, outermost first (for the log and the classification). */
export function causeChain(error: unknown): string[] {
  const messages: string[] = [];
  for (let e = error; e instanceof Error && messages.length < 5; e = e.cause)
    messages.push(e.message);
  return messages;
}

/** The refusal behind an error thrown while finishing a sign-in (openid-client's checks, the provider's answers). */
export function refusalOf(error: unknown): OidcRefusal {
  if (error instanceof OidcRefusal) return error;
  const refuse = (code: OidcErrorCode) =>
    new OidcRefusal(code, (error as Error).message ?? String(error), { cause: error });
  // The provider answered the authorization request with an error (access_denied, login_required).
  if (error instanceof AuthorizationResponseError) return refuse("denied");
  // The token endpoint refused the code: used before, expired, or not issued for this verifier.
  if (error instanceof ResponseBodyError) return refuse("code");
  if (error instanceof ClientError) {
    const check = error.cause as { cause?: { claim?: string } } | undefined;
    switch (error.code) {
      case "OAUTH_JWT_CLAIM_COMPARISON_FAILED":
        return refuse(CLAIM_CODES[check?.cause?.claim ?? ""] ?? "failed");
      case "OAUTH_JWT_TIMESTAMP_CHECK_FAILED":
        return refuse("token_expired");
      case "OAUTH_KEY_SELECTION_FAILED":
        return refuse("signature");
      case "OAUTH_INVALID_RESPONSE": {
        // openid-client says only "invalid response encountered"; the check that failed says more.
        const detail = causeChain(error).join(" ");
        if (/signature/i.test(detail)) return refuse("signature");
        if (/"state"/.test(detail)) return refuse("state");
        if (/"iss"/.test(detail)) return refuse("issuer");
        return refuse("failed");
      }
      case "OAUTH_TIMEOUT":
      case "OAUTH_RESPONSE_IS_NOT_CONFORM":
      case "OAUTH_RESPONSE_IS_NOT_JSON":
        return refuse("unavailable");
    }
  }
  // fetch() itself failed: the provider cannot be reached.
  if (error instanceof TypeError && /fetch failed/i.test(error.message))
    return refuse("unavailable");
  return refuse("failed");
}
