import { rmSync } from "node:fs";
import { stopProcess } from "./support/server.ts";

/** Stops the server started by global-setup.ts and removes its database (E2E_KEEP_DATA=1 keeps it). */
export default async function globalTeardown(): Promise<void> {
  const pid = Number(process.env.E2E_SERVER_PID);
  if (pid > 0) await stopProcess(pid);
  const dataDir = process.env.E2E_DATA_DIR;
  if (dataDir && !process.env.E2E_KEEP_DATA) {
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  }
}
