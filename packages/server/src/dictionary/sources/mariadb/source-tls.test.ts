import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testCertificates } from "../../../testing/test-certificates.ts";
import { SourceConnectionError } from "../source-error.ts";
import { parseOptionFile } from "./connection-file.ts";
import { mariadbSource, mariadbSslOptions } from "./source-database.ts";

// The client's ssl-mode, as mysql2 is told it: VERIFY_CA verifies the chain against ssl-ca but not
// the host name, VERIFY_IDENTITY both, REQUIRED neither (unless ssl-ca is given).

const PEM = { pem: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n" };

describe("the TLS options of a MariaDB connection", () => {
  it("follow the ssl-mode", () => {
    expect(mariadbSslOptions({ sslMode: "VERIFY_CA", ca: PEM })).toEqual({
      ca: PEM.pem,
      rejectUnauthorized: true,
      verifyIdentity: false,
    });
    expect(mariadbSslOptions({ sslMode: "VERIFY_IDENTITY" })).toEqual({
      rejectUnauthorized: true,
      verifyIdentity: true,
    });
    expect(mariadbSslOptions({ sslMode: "REQUIRED" })).toEqual({
      rejectUnauthorized: false,
      verifyIdentity: false,
    });
    expect(mariadbSslOptions({ sslMode: "REQUIRED", ca: PEM })).toMatchObject({
      rejectUnauthorized: true,
    });
    for (const sslMode of ["DISABLED", "PREFERRED"] as const)
      expect(mariadbSslOptions({ sslMode, ca: PEM }), sslMode).toBeUndefined();
  });

  it("are refused by name when the file's ssl-mode is not one the clients know", () => {
    const parse = (line: string) =>
      parseOptionFile("tls.conf", ["[client]", "host=db", "user=u", line].join("\n"));
    expect(() => parse("ssl-mode=verify-full")).toThrow(
      "Connection file 'tls.conf': ssl-mode is not one of DISABLED, PREFERRED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY",
    );
    expect(parse("ssl-mode=verify_ca\nssl-ca=ca.crt")).toMatchObject({ sslMode: "VERIFY_CA" });
  });
});

/** The first packet a MariaDB server sends: protocol 10, offering TLS (CLIENT_SSL). */
function serverGreeting(): Buffer {
  const payload = Buffer.concat([
    Buffer.from([10]),
    Buffer.from("5.5.5-10.11.0-MariaDB\0", "latin1"),
    Buffer.from([1, 0, 0, 0]), // connection id
    Buffer.from("abcdefgh\0", "latin1"), // scramble, part 1
    Buffer.from([0xff, 0xff]), // capabilities, low half: CLIENT_SSL among them
    Buffer.from([33, 2, 0]), // character set, status
    Buffer.from([0x08, 0x00]), // capabilities, high half: CLIENT_PLUGIN_AUTH
    Buffer.from([21]),
    Buffer.alloc(10),
    Buffer.from("ijklmnopqrst\0", "latin1"), // scramble, part 2
    Buffer.from("mysql_native_password\0", "latin1"),
  ]);
  const head = Buffer.alloc(4);
  head.writeUIntLE(payload.length, 0, 3);
  return Buffer.concat([head, payload]);
}

describe("a MariaDB server whose certificate is signed by one authority for another host name", () => {
  let dir: string;
  let server: net.Server;
  let port: number;
  /** TLS handshakes the server completed. */
  let handshakes = 0;

  beforeAll(async () => {
    const certificates = await testCertificates();
    dir = certificates.dir;
    const { key, cert } = certificates;
    // Speaks as much of the protocol as TLS needs: the greeting, the client's SSL request (4 + 32
    // bytes), then the handshake; once it succeeds the connection ends.
    server = net.createServer((socket) => {
      socket.on("error", () => undefined);
      socket.write(serverGreeting());
      socket.once("data", (request) => {
        socket.pause();
        if (request.length > 36) socket.unshift(request.subarray(36));
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

  /** Pings with a connection file of these lines, read as the server reads it; answers the failure's text. */
  async function connectWith(lines: string[]): Promise<{ message: string; handshake: boolean }> {
    await fs.writeFile(
      path.join(dir, "tls.conf"),
      ["[client]", "host=127.0.0.1", `port=${port}`, "user=u", "connect-timeout=5", ...lines].join(
        "\n",
      ),
    );
    const source = await mariadbSource.open(dir, "tls.conf");
    const before = handshakes;
    const failure = await source.ping().then(
      () => new Error("connected"),
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SourceConnectionError);
    return { message: (failure as Error).message, handshake: handshakes > before };
  }

  it("is refused under VERIFY_CA when ssl-ca holds another authority", async () => {
    expect(await connectWith(["ssl-mode=VERIFY_CA", "ssl-ca=other-ca.crt"])).toEqual({
      message:
        "Cannot connect with connection file 'tls.conf': the database server's certificate is not signed by the trusted authority",
      handshake: false,
    });
  });

  it("is accepted under VERIFY_CA with its own authority, whatever host name it names", async () => {
    const { message, handshake } = await connectWith(["ssl-mode=VERIFY_CA", "ssl-ca=ca.crt"]);
    expect(handshake).toBe(true);
    expect(message).not.toMatch(/certificate|TLS/);
  });

  it("is refused under VERIFY_IDENTITY with its own authority: the name is not the host's", async () => {
    expect(await connectWith(["ssl-mode=VERIFY_IDENTITY", "ssl-ca=ca.crt"])).toEqual({
      message:
        "Cannot connect with connection file 'tls.conf': the database server's certificate is for another host name",
      handshake: false,
    });
  });

  it("is accepted under REQUIRED without ssl-ca, and verified with one", async () => {
    expect((await connectWith(["ssl-mode=REQUIRED"])).handshake).toBe(true);
    expect(await connectWith(["ssl-mode=REQUIRED", "ssl-ca=other-ca.crt"])).toMatchObject({
      handshake: false,
      message: expect.stringMatching(/certificate is not signed by the trusted authority$/),
    });
  });
});
