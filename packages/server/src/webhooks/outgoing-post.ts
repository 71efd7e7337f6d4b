import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import ipaddr from "ipaddr.js";

/** How a try ended: the receiver's answer, or why there was none. */
export type PostOutcome =
  | { delivered: true; answerCode: number }
  | {
      delivered: false;
      answerCode: number | null;
      reason: string;
      /** false: trying again cannot help (a refused address, a redirect to another host). */
      retry: boolean;
    };

export interface PostOptions {
  timeoutMs: number;
  /** Whether private, loopback and link-local addresses may be reached. */
  allowPrivate: boolean;
}

/** A redirect chain longer than this is a loop, or a receiver that does not want the event. */
const MAX_REDIRECTS = 3;

/** Why an address may not be reached, or undefined when it may: only public unicast addresses. */
export function refusedAddress(address: string, allowPrivate: boolean): string | undefined {
  if (allowPrivate) return undefined;
  const range = ipaddr.process(address).range();
  return range === "unicast"
    ? undefined
    : `the address ${address} is ${range === "linkLocal" ? "link-local" : range}, and webhooks may not reach private networks (WEBHOOK_ALLOW_PRIVATE)`;
}

class RefusedAddressError extends Error {}

/** The address `text` names (relative to `base`), or undefined when it names none. */
function addressOf(text: string, base?: URL): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}

/**
 * The name lookup of every connection: the addresses a name resolves to are checked where the
 * socket connects to them, so a name that resolves to a public address when checked and to a
 * private one when connecting (DNS rebinding) is refused too.
 */
function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 4);
      for (const { address } of addresses) {
        const refused = refusedAddress(address, allowPrivate);
        if (refused) return callback(new RefusedAddressError(refused), "", 4);
      }
      if (options.all) return callback(null, addresses as unknown as string, 4);
      const [first] = addresses;
      return callback(null, first.address, first.family);
    });
  };
}

interface Answer {
  status: number;
  location: string | undefined;
}

function postOnce(
  url: URL,
  body: string,
  headers: Record<string, string>,
  allowPrivate: boolean,
  signal: AbortSignal,
) {
  return new Promise<Answer>((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(url, {
      method: "POST",
      headers: {
        ...headers,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "user-agent": "Ledgerline-Webhooks",
      },
      lookup: guardedLookup(allowPrivate),
      signal,
    });
    request.on("response", (response) => {
      // The answer's body tells nothing the code does not: read and dropped, so the socket frees.
      response.resume();
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, location: response.headers.location }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

function failureReason(error: unknown, timeoutMs: number): string {
  if (error instanceof RefusedAddressError) return `Refused: ${error.message}`;
  const e = error as NodeJS.ErrnoException;
  if (e.name === "TimeoutError" || e.name === "AbortError")
    return `No answer within ${timeoutMs / 1000} s`;
  if (e.code === "ENOTFOUND") return `The host name could not be resolved (${e.code})`;
  if (e.code) return `Could not reach the receiver (${e.code})`;
  return `Could not reach the receiver: ${e.message}`;
}

/**
 * POSTs a webhook: one short timeout for the whole exchange (redirects included, so a claim's
 * lease covers it), only to addresses that may be reached, redirects followed only within the
 * same host (and port), at most MAX_REDIRECTS of them. A 2xx answer delivers it. Never throws:
 * whatever goes wrong is the try's outcome.
 */
export async function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostOutcome> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url = addressOf(target);
  if (!url)
    return {
      delivered: false,
      answerCode: null,
      reason: "Refused: not a web address",
      retry: false,
    };
  for (let hop = 0; ; hop++) {
    if (net.isIP(url.hostname.replace(/^\[|\]$/g, ""))) {
      const refused = refusedAddress(url.hostname.replace(/^\[|\]$/g, ""), options.allowPrivate);
      if (refused)
        return { delivered: false, answerCode: null, reason: `Refused: ${refused}`, retry: false };
    }
    let answer: Answer;
    try {
      answer = await postOnce(url, body, headers, options.allowPrivate, signal);
    } catch (error) {
      return {
        delivered: false,
        answerCode: null,
        reason: failureReason(error, options.timeoutMs),
        retry: !(error instanceof RefusedAddressError),
      };
    }
    const { status, location } = answer;
    if (status >= 200 && status < 300) return { delivered: true, answerCode: status };
    if (status < 300 || status >= 400 || !location)
      return {
        delivered: false,
        answerCode: status,
        reason: `The receiver answered ${status}`,
        retry: true,
      };
    const next = addressOf(location, url);
    if (!next)
      return {
        delivered: false,
        answerCode: status,
        reason: `Refused: the receiver redirected to '${location.slice(0, 200)}', which is not an address`,
        retry: false,
      };
    if (next.host !== url.host || next.protocol !== url.protocol)
      return {
        delivered: false,
        answerCode: status,
        reason: `Refused: the receiver redirected to another host (${next.host}), which webhooks never follow`,
        retry: false,
      };
    if (hop === MAX_REDIRECTS)
      return {
        delivered: false,
        answerCode: status,
        reason: `More than ${MAX_REDIRECTS} redirects`,
        retry: true,
      };
    url = next;
  }
}
