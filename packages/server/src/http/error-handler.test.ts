import Fastify, { type FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/connection.ts";
import { AppError } from "../errors.ts";
import { openTestDatabase } from "../testing/test-database.ts";
import { errorHandler } from "./error-handler.ts";

let database: Database;
let app: FastifyInstance;

/** The error the database raises for this statement, as a route would meet it. */
async function databaseError(statement: string): Promise<Error & { statusCode?: number }> {
  try {
    await sql.raw(statement).execute(database.db);
  } catch (error) {
    return error as Error;
  }
  throw new Error(`'${statement}' did not fail`);
}

beforeAll(async () => {
  database = await openTestDatabase();
  app = Fastify({ logger: false });
  app.setErrorHandler(errorHandler);
  app.get("/syntax", async () => {
    throw await databaseError("select secret_column from app_secrets where owner = 'x' limit");
  });
  app.get("/missing-table", async () => {
    throw await databaseError("select secret_column from app_secrets");
  });
  app.get("/client-status-on-a-database-error", async () => {
    const error = await databaseError("select secret_column from app_secrets");
    throw Object.assign(error, { statusCode: 400 });
  });
  app.get("/out-of-range", async () => {
    throw await databaseError("select 2147483647::int + 1");
  });
  app.get("/file-system", async () => {
    throw Object.assign(
      new Error("ENOENT: no such file or directory, open '/srv/ledgerline/data/x'"),
      {
        code: "ENOENT",
        errno: -2,
        syscall: "open",
        path: "/srv/ledgerline/data/x",
        statusCode: 404,
      },
    );
  });
  app.get("/not-for-clients", async () => {
    throw Object.assign(new Error("stat '/srv/ledgerline/web/x' failed"), {
      statusCode: 403,
      expose: false,
    });
  });
  app.get("/app-error", async () => {
    throw new AppError(409, "Someone changed it first", { cause: new Error("/srv/x") });
  });
  app.post("/json", async () => ({ ok: true }));
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

const get = async (url: string) => {
  const res = await app.inject({ method: "GET", url });
  return { status: res.statusCode, body: res.json() };
};

describe("the error handler", () => {
  it("never sends a database's text: SQL, table or column names", async () => {
    for (const url of ["/syntax", "/missing-table"]) {
      const answer = await get(url);
      expect(answer, url).toEqual({ status: 500, body: { message: "Internal server error" } });
    }
    expect(await get("/client-status-on-a-database-error")).toEqual({
      status: 400,
      body: { message: "Bad Request" },
    });
  });

  it("answers a value the database refuses in its own words", async () => {
    expect(await get("/out-of-range")).toEqual({
      status: 400,
      body: { message: "A number is out of range" },
    });
  });

  it("never sends a server path from the file system or an error marked not for clients", async () => {
    expect(await get("/file-system")).toEqual({ status: 404, body: { message: "Not Found" } });
    expect(await get("/not-for-clients")).toEqual({ status: 403, body: { message: "Forbidden" } });
  });

  it("sends the message of an error written for users, not its cause", async () => {
    expect(await get("/app-error")).toEqual({
      status: 409,
      body: { message: "Someone changed it first" },
    });
  });

  it("keeps Fastify's own client texts", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/json",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/JSON/i);
  });
});
