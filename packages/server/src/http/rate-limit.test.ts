import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "busy" });
  await t.createUser({ username: "calm" });
});
afterAll(() => t.close());

describe("rate limits of expensive calls", () => {
  it("answers 429 with Retry-After past 30 exports a minute, per user", async () => {
    const busy = await t.login("busy", TEST_USER_PASSWORD);
    const body = { fields: [{ key: "a", header: "A" }], items: [{ a: 1 }] };
    // Windows are fixed minutes: the limit bites within 61 calls whichever second this starts at.
    let allowed = 0;
    let refused: Awaited<ReturnType<typeof t.post>> | undefined;
    for (let i = 0; i < 61 && !refused; i++) {
      const res = await t.post("/api/xlsxgen", body, busy);
      if (res.statusCode === 200) allowed += 1;
      else refused = res;
    }
    expect(allowed).toBeGreaterThanOrEqual(30);
    expect(refused?.statusCode).toBe(429);
    expect(refused?.json().message).toMatch(
      /^Too many requests of this kind; try again in \d+ seconds$/,
    );
    expect(Number(refused?.headers["retry-after"])).toBeGreaterThan(0);
    const calm = await t.login("calm", TEST_USER_PASSWORD);
    expect((await t.post("/api/xlsxgen", body, calm)).statusCode).toBe(200);
  });
});
