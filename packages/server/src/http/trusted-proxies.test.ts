import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.ts";
import { parseTrustedProxies, type TrustedProxies, trustProxyOption } from "./trusted-proxies.ts";

/** What a server with this setting takes for the client's address and protocol. */
async function seenAs(
  proxies: TrustedProxies | undefined,
  headers: Record<string, string>,
  remoteAddress = "127.0.0.1",
) {
  const app = Fastify({ trustProxy: trustProxyOption(proxies) });
  app.get("/", async (request) => ({ ip: request.ip, protocol: request.protocol }));
  const res = await app.inject({ method: "GET", url: "/", headers, remoteAddress });
  await app.close();
  return res.json() as { ip: string; protocol: string };
}

describe("TRUST_PROXY", () => {
  it("reads off, a number of proxies and a list of addresses", () => {
    expect(loadConfig({}, []).trustProxy).toBeUndefined();
    for (const off of ["0", "false", "no"])
      expect(loadConfig({ TRUST_PROXY: off }, []).trustProxy).toBeUndefined();
    // The old flag's 1, true and yes meant "behind a reverse proxy": one.
    for (const one of ["1", "true", "yes"])
      expect(loadConfig({ TRUST_PROXY: one }, []).trustProxy).toEqual({ hops: 1 });
    expect(loadConfig({ TRUST_PROXY: "2" }, []).trustProxy).toEqual({ hops: 2 });
    expect(
      loadConfig({ TRUST_PROXY: "10.0.0.5, 10.1.0.0/16,loopback, fd00::/8" }, []).trustProxy,
    ).toEqual({ addresses: ["10.0.0.5", "10.1.0.0/16", "loopback", "fd00::/8"] });
  });

  it("refuses to start on an entry that is no address, naming it", () => {
    expect(() => loadConfig({ TRUST_PROXY: "10.0.0.5, proxy.internal" }, [])).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: "10.0.0.0/33" }, [])).toThrow(
      /TRUST_PROXY: '10.0.0.0\/33' is not a number of proxies/,
    );
    expect(parseTrustedProxies("10.0.0.1/8/9")).toHaveProperty("problem");
  });
});

describe("the client's address and protocol", () => {
  const forwarded = { "x-forwarded-for": "192.0.2.66, 198.51.100.20, 10.0.0.2" };

  it("ignore X-Forwarded-* when no proxy is trusted", async () => {
    expect(await seenAs(undefined, { ...forwarded, "x-forwarded-proto": "https" })).toEqual({
      ip: "127.0.0.1",
      protocol: "http",
    });
  });

  it("with a count, are the entry that many hops back, never a client-written left-most one", async () => {
    expect((await seenAs({ hops: 1 }, forwarded)).ip).toBe("10.0.0.2");
    expect((await seenAs({ hops: 2 }, forwarded)).ip).toBe("198.51.100.20");
    expect((await seenAs({ hops: 1 }, { "x-forwarded-proto": "https" })).protocol).toBe("https");
  });

  it("with addresses, are the right-most entry no listed proxy wrote", async () => {
    const proxies = { addresses: ["127.0.0.1", "10.0.0.0/8"] };
    expect((await seenAs(proxies, forwarded)).ip).toBe("198.51.100.20");
    // A peer that is not a listed proxy is the client, whatever it forwards.
    expect(
      await seenAs(proxies, { ...forwarded, "x-forwarded-proto": "https" }, "203.0.113.9"),
    ).toEqual({ ip: "203.0.113.9", protocol: "http" });
  });
});
