import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * A folder with two authorities (ca.crt, other-ca.crt) and a server certificate db.crt (key
 * db.key) that `ca` signed for the host name db.example.test, valid for a day.
 */
export async function testCertificates(): Promise<{ dir: string; key: Buffer; cert: Buffer }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-tls-"));
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  for (const name of ["ca", "other-ca"])
    openssl(
      "req",
      "-x509",
      "-days",
      "1",
      "-subj",
      `/CN=Ledgerline test ${name}`,
      ...newKey,
      "-keyout",
      `${name}.key`,
      "-out",
      `${name}.crt`,
    );
  await fs.writeFile(path.join(dir, "san.ext"), "subjectAltName=DNS:db.example.test\n");
  openssl("req", ...newKey, "-subj", "/CN=db.example.test", "-keyout", "db.key", "-out", "db.csr");
  openssl(
    "x509",
    "-req",
    "-in",
    "db.csr",
    "-CA",
    "ca.crt",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-days",
    "1",
    "-extfile",
    "san.ext",
    "-out",
    "db.crt",
  );
  return {
    dir,
    key: await fs.readFile(path.join(dir, "db.key")),
    cert: await fs.readFile(path.join(dir, "db.crt")),
  };
}
