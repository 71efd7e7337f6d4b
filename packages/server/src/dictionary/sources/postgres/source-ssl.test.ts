import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../../errors.ts";
import { testCertificates } from "../../../testing/test-certificates.ts";
import { SourceConnectionError } from "../source-error.ts";
import { type ConnectionSettings, loadConnection, parseServiceFile } from "./connection-file.ts";
import { connectReadOnly, sslOptionsOf } from "./source-database.ts";

// libpq's sslmode, as node-postgres is told it: `verify-ca` verifies the chain against sslrootcert
// but not the host name, `verify-full` both, `require` neither (unless a root certificate is given).

const PEM = { pem: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n" };

describe("the TLS options of a source connection", () => {
  it("verify the chain under verify-ca, but not the host name", () => {
    const options = sslOptionsOf({ sslmode: "verify-ca", sslRootCert: PEM });
    expect(options).toMatchObject({ ca: PEM.pem, rejectUnauthorized: true });
    expect(options?.checkServerIdentity?.("db.example.test", {} as tls.PeerCertificate)).toBe(
      undefined,
    );
  });

  it("verify chain and host name under verify-full, against sslrootcert or the system's authorities", () => {
    expect(sslOptionsOf({ sslmode: "verify-full", sslRootCert: PEM })).toEqual({
      ca: PEM.pem,
      rejectUnauthorized: true,
    });
    expect(sslOptionsOf({ sslmode: "verify-full", sslRootCert: "system" })).toEqual({
      rejectUnauthorized: true,
    });
    expect(sslOptionsOf({ sslmode: "verify-full" })).toEqual({ rejectUnauthorized: true });
  });

  it("encrypt without verifying under require, unless a root certificate is given", () => {
    expect(sslOptionsOf({ sslmode: "require" })).toEqual({ rejectUnauthorized: false });
    expect(sslOptionsOf({ sslmode: "require", sslRootCert: PEM })).toMatchObject({
      ca: PEM.pem,
      rejectUnauthorized: true,
    });
    for (const sslmode of [undefined, "disable", "allow", "prefer"] as const)
      expect(sslOptionsOf({ sslmode, sslRootCert: PEM }), sslmode).toBeUndefined();
  });

  it("are refused by name when the connection file's sslmode cannot verify what it says", () => {
    const parse = (lines: string[]) =>
      parseServiceFile("tls.conf", ["[tls]", "host=db", "dbname=d", "user=u", ...lines].join("\n"));
    expect(() => parse(["sslmode=verify-certificate"])).toThrow(
      "Connection file 'tls.conf': sslmode is not one of disable, allow, prefer, require, verify-ca, verify-full",
    );
    expect(() => parse(["sslmode=verify-ca"])).toThrow(
      "Connection file 'tls.conf': sslmode verify-ca needs sslrootcert, the certificate of the authority to verify against",
    );
    expect(() => parse(["sslmode=verify-ca", "sslrootcert=system"])).toThrow(
      "Connection file 'tls.conf': sslrootcert=system needs sslmode verify-full",
    );
    expect(parse(["sslmode=verify-ca", "sslrootcert=ca.crt"])).toMatchObject({
      sslmode: "verify-ca",
      sslrootcert: "ca.crt",
    });
  });
});

describe("a source server whose certificate is signed by one authority for another host name", () => {
  let dir: string;
  let server: net.Server;
  let port: number;
  /** TLS handshakes the server completed. */
  let handshakes = 0;

  beforeAll(async () => {
    const certificates = await testCertificates();
    dir = certificates.dir;
    const { key, cert } = certificates;
    // Speaks as much of PostgreSQL's protocol as TLS needs: 'S' to the SSLRequest, then the
    // handshake; once it succeeds the connection ends, which is as far as these tests look.
    server = net.createServer((socket) => {
      socket.on("error", () => undefined);
      socket.once("data", (request) => {
        if (request.length < 8 || request.readInt32BE(4) !== 80877103) return socket.destroy();
        socket.write("S");
        const secure = new tls.TLSSocket(socket, { isServer: true, key, cert });
        secure.on("error", () => undefined);
        secure.on("secure", () => {
          handshakes += 1;
          secure.destroy();
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** Connects with a connection file of these lines, read as the server reads it; answers the failure's text. */
  async function connectWith(lines: string[]): Promise<{ message: string; handshake: boolean }> {
    await fs.writeFile(
      path.join(dir, "tls.conf"),
      ["[tls]", "host=127.0.0.1", `port=${port}`, "dbname=d", "user=u", ...lines].join("\n"),
    );
    const settings: ConnectionSettings = await loadConnection(dir, "tls.conf");
    const before = handshakes;
    const failure = await connectReadOnly({ ...settings, connectTimeoutSeconds: 5 }).then(
      (client) => client.end().then(() => new Error("connected")),
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SourceConnectionError);
    return { message: (failure as Error).message, handshake: handshakes > before };
  }

  it("is refused under verify-ca when sslrootcert holds another authority", async () => {
    expect(await connectWith(["sslmode=verify-ca", "sslrootcert=other-ca.crt"])).toEqual({
      message:
        "Cannot connect with connection file 'tls.conf': the database server's certificate is not signed by the trusted authority",
      handshake: false,
    });
  });

  it("is accepted under verify-ca with its own authority, whatever host name it names", async () => {
    const { message, handshake } = await connectWith([
      "sslmode=verify-ca",
      `sslrootcert=${path.join(dir, "ca.crt")}`,
    ]);
    expect(handshake).toBe(true);
    expect(message).not.toMatch(/certificate|SSL/);
  });

  it("is refused under verify-full with its own authority: the name is not the host's", async () => {
    expect(await connectWith(["sslmode=verify-full", "sslrootcert=ca.crt"])).toEqual({
      message:
        "Cannot connect with connection file 'tls.conf': the database server's certificate is for another host name",
      handshake: false,
    });
  });

  it("is accepted under require without a root certificate, and verified with one", async () => {
    expect((await connectWith(["sslmode=require"])).handshake).toBe(true);
    expect(await connectWith(["sslmode=require", "sslrootcert=other-ca.crt"])).toMatchObject({
      handshake: false,
      message: expect.stringMatching(/certificate is not signed by the trusted authority$/),
    });
  });

  it("names the connection file, not the path, when sslrootcert cannot be read", async () => {
    await fs.writeFile(
      path.join(dir, "tls.conf"),
      "[tls]\nhost=h\ndbname=d\nuser=u\nsslmode=verify-ca\nsslrootcert=absent.crt\n",
    );
    const refused = await loadConnection(dir, "tls.conf").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      statusCode: 400,
      message: "Connection file 'tls.conf': its sslrootcert file cannot be read",
    });
  });
});
