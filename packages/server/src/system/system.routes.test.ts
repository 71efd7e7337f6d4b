import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../testing/test-app.ts";

let t: TestApp;
let webDist: string;
beforeAll(async () => {
  webDist = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-web-"));
  await fs.mkdir(path.join(webDist, "assets"));
  await fs.writeFile(path.join(webDist, "index.html"), "<!doctype html><title>Ledgerline</title>");
  await fs.writeFile(path.join(webDist, "assets", "app-abc123.js"), "console.log(1)");
  t = await createTestApp({ env: { WEB_DIST: webDist, NAV_HIDE: "upload, developer" } });
});
afterAll(async () => {
  await t.close();
  await fs.rm(webDist, { recursive: true, force: true });
});

describe("system routes", () => {
  it("GET /healthz answers ok once started, GET /readyz when the database answers", async () => {
    const res = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
    const ready = await t.app.inject({ method: "GET", url: "/readyz" });
    expect([ready.statusCode, ready.json()]).toEqual([200, { status: "ready" }]);
  });

  it("GET /app-config.json carries the switched-off navigation items and no secrets", async () => {
    const res = await t.app.inject({ method: "GET", url: "/app-config.json" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      productName: "Ledgerline",
      version: "0.1.0",
      navHidden: ["upload", "developer"],
      listAllMaxRows: 100_000,
    });
  });

  it("serves index.html for deep links and reloads, uncached", async () => {
    for (const url of [
      "/",
      "/explorer",
      "/system-environment/edit/12",
      "/errornotification/ERR_X",
    ]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain("<title>Ledgerline</title>");
      expect(res.headers["cache-control"], url).toBe("no-cache");
    }
  });

  it("serves fingerprinted assets as immutable", async () => {
    const res = await t.app.inject({ method: "GET", url: "/assets/app-abc123.js" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toContain("immutable");
  });

  it("answers 404 JSON, not the web app, for unknown server paths", async () => {
    for (const url of [
      "/api/nothing",
      "/auth/nothing",
      "/data-dictionary/nothing",
      "/ws/nothing",
    ]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message, url).toMatch(/No such call/);
    }
  });

  it("sends the security headers", async () => {
    const res = await t.app.inject({ method: "GET", url: "/" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });
});

describe("OpenAPI", () => {
  it("documents every API route, with request and response schemas", async () => {
    const cookie = await t.login("admin", ADMIN_PASSWORD);
    const res = await t.app.inject({
      method: "GET",
      url: "/api/openapi.json",
      headers: { cookie, "sec-fetch-site": "same-origin" },
    });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      openapi: string;
      paths: Record<string, Record<string, { responses: object }>>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    const documented = t.app.registeredRoutes.filter(
      (r) =>
        r.method !== "HEAD" &&
        !r.url.includes("*") &&
        !r.url.startsWith("/api/docs") &&
        r.url !== "/api/openapi.json" &&
        !r.url.startsWith("/ws/"),
    );
    expect(documented.length).toBeGreaterThan(5);
    for (const r of documented) {
      const op = doc.paths[r.url]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.url}`).toBeDefined();
      expect(Object.keys(op.responses), `${r.method} ${r.url}`).toContain("200");
    }
    expect(doc.paths["/auth/login"].post).toMatchObject({
      requestBody: { content: { "application/x-www-form-urlencoded": {} } },
    });
  });

  it("renders the reference page for developers", async () => {
    const cookie = await t.login("admin", ADMIN_PASSWORD);
    const res = await t.app.inject({
      method: "GET",
      url: "/api/docs/",
      headers: { cookie, "sec-fetch-site": "same-origin" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("swagger");
  });
});
