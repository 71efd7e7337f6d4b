import { isIP } from "node:net";

/**
 * The reverse proxies whose X-Forwarded-For/-Proto/-Host are believed (TRUST_PROXY): the number of
 * them in front of the server, or their addresses. The client's address is then the right-most
 * forwarded entry no trusted proxy wrote, never the left-most one, which the client writes itself.
 */
export type TrustedProxies = { hops: number } | { addresses: string[] };

/** proxy-addr's names for whole ranges, accepted in an address list as Fastify accepts them. */
const RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

const OFF = new Set(["0", "false", "no"]);
// The old on/off flag's "on" meant "behind a reverse proxy": one of them.
const ONE = new Set(["true", "yes"]);

/**
 * Reads TRUST_PROXY: 0 (or false, no) for none, a whole number for that many proxies (true and
 * yes for one), else a comma-separated list of addresses, CIDR subnets and range names.
 * Answers the problem with the text instead when there is one.
 */
export function parseTrustedProxies(
  text: string,
): { value: TrustedProxies | undefined } | { problem: string } {
  const trimmed = text.trim().toLowerCase();
  if (OFF.has(trimmed)) return { value: undefined };
  if (ONE.has(trimmed)) return { value: { hops: 1 } };
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    return hops <= 20
      ? { value: { hops } }
      : { problem: "a number of proxies must be 20 or fewer" };
  }
  const addresses = trimmed
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (addresses.length === 0) return { problem: "a number of proxies or their addresses" };
  const bad = addresses.filter((entry) => !isProxyAddress(entry));
  if (bad.length > 0)
    return {
      problem: `${bad.map((b) => `'${b}'`).join(", ")} is not a number of proxies, an IP address, a CIDR subnet (10.0.0.0/8) or loopback, linklocal, uniquelocal`,
    };
  return { value: { addresses } };
}

function isProxyAddress(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...more] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || more.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Fastify's `trustProxy` option for the setting. A count is given as a function: Fastify 5 no
 * longer honours a bare number (it cannot tell whether the nearest peer is a proxy at all), so
 * counting hops is our documented choice, safe only when the server is reachable through the
 * proxies alone (HOST=127.0.0.1 or a firewall); a list of addresses checks the peers themselves.
 */
export function trustProxyOption(
  proxies: TrustedProxies | undefined,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (!proxies) return false;
  if ("addresses" in proxies) return proxies.addresses;
  const { hops } = proxies;
  return (_address, hop) => hop < hops;
}
