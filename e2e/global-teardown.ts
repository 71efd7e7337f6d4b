import { rmSync } from "node:fs";
import { stopMailSink } from "./support/mail.ts";
import { stopOidcForE2e } from "./support/oidc.ts";
import { stopProcess } from "./support/server.ts";

/**
 * Stops the server started by global-setup.ts, then its SMTP server, and removes the database and
 * the received mail (E2E_KEEP_DATA=1 keeps them).
 */
export default async function globalTeardown(): Promise<void> {
  const pid = Number(process.env.E2E_SERVER_PID);
  if (pid > 0) await stopProcess(pid);
  await stopMailSink();
  await stopOidcForE2e();
  const dataDir = process.env.E2E_DATA_DIR;
  if (dataDir && !process.env.E2E_KEEP_DATA) {
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  }
}
