import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { runStatements, serverVersion } from "./postgres-server.ts";

export const SOURCE_SERVER_URL =
  process.env.TEST_SOURCE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";

/** Whether the PostgreSQL server that hosts test source databases answers. */
export async function sourceServerReachable(): Promise<boolean> {
  return (await serverVersion(SOURCE_SERVER_URL)) !== undefined;
}

/** A throwaway database to document, and a way to change and drop it. */
export interface SourceDatabase {
  name: string;
  host: string;
  port: number;
  user: string;
  exec(...statements: string[]): Promise<void>;
  drop(): Promise<void>;
}

export async function createSourceDatabase(setup: string[]): Promise<SourceDatabase> {
  const name = `ledgerline_src_${process.pid}_${randomBytes(3).toString("hex")}`;
  await runStatements(SOURCE_SERVER_URL, [`create database ${name}`]);
  const url = new URL(SOURCE_SERVER_URL);
  url.pathname = `/${name}`;
  await runStatements(url.toString(), setup);
  return {
    name,
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username || "postgres"),
    exec: (...statements) => runStatements(url.toString(), statements),
    drop: () => runStatements(SOURCE_SERVER_URL, [`drop database if exists ${name} with (force)`]),
  };
}

/** Writes `file` in the connections folder for `source`, and the `.pgpass` line it logs in with. */
export async function writeConnectionFile(
  connectionsDir: string,
  file: string,
  source: SourceDatabase,
): Promise<void> {
  await fs.writeFile(
    path.join(connectionsDir, file),
    `[source]\nhost=${source.host}\nport=${source.port}\ndbname=${source.name}\nuser=${source.user}\n`,
  );
  await fs.writeFile(
    path.join(connectionsDir, ".pgpass"),
    `${source.host}:${source.port}:*:${source.user}:unused-with-trust\n`,
    { mode: 0o600 },
  );
}

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/**
 * A local server speaking just enough of the PostgreSQL protocol to refuse a password (28P01), or
 * never to answer at all (for timeouts). Answers its port and a close function.
 */
export async function fakePostgres(
  behaviour: "wrong-password" | "silent",
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    let startup = true;
    socket.on("data", (data) => {
      if (behaviour === "silent" || socket.writableEnded) return;
      if (startup && data.length === 8 && data.readInt32BE(4) === 80877103) {
        socket.write("N"); // no TLS
        return;
      }
      if (startup) {
        startup = false;
        const auth = Buffer.alloc(4);
        auth.writeInt32BE(3); // cleartext password, please
        socket.write(message("R", auth));
        return;
      }
      const fields = Buffer.from(
        'SFATAL\0C28P01\0Mpassword authentication failed for user "reader"\0\0',
        "latin1",
      );
      socket.end(message("E", fields));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
