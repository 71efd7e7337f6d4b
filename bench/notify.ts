// `npm run bench -- notify`: 1,000 queued e-mails delivered by the sender to a local SMTP server
// (smtp-server on 127.0.0.1), each over the same pooled connection, one round after another.
import { sql } from "kysely";
import { SILENT } from "../packages/server/src/notifications/notify.service.ts";
import { enqueueToUser } from "../packages/server/src/notifications/outbox.repository.ts";
import { sendDue, smtpTransport } from "../packages/server/src/notifications/sender.ts";
import { startSmtpSink } from "../packages/server/src/testing/smtp-sink.ts";
import { envSize } from "./support/env.ts";
import { loadNote, round, table, writeResult } from "./support/results.ts";
import {
  announceBench,
  benchModelWithLayout,
  check,
  timed,
  withBenchApp,
} from "./support/workload.ts";

const silentLog = { warn: () => undefined, error: () => undefined } as never;

export async function benchNotify(): Promise<void> {
  const count = envSize("BENCH_NOTIFY_MESSAGES", 1_000);
  await announceBench("notify");
  const smtp = await startSmtpSink();
  try {
    const seconds = await withBenchApp(
      "notify",
      { "bench.yaml": benchModelWithLayout() },
      async ({ bench }) => {
        const db = bench.database.db;
        await sql`insert into app.users (username, name, email, password_hash)
                values ('reader', 'Reader', 'reader@example.test', 'x')`.execute(db);
        await db.transaction().execute(async (tx) => {
          for (let i = 0; i < count; i++)
            await enqueueToUser(tx, "decision", "reader", {
              subject: `Bench message ${i}`,
              text: `Message ${i} of the notify benchmark.`,
              html: `<p>Message ${i} of the notify benchmark.</p>`,
            });
        });
        const transport = smtpTransport({
          host: "127.0.0.1",
          port: smtp.port,
          tls: "none",
          user: undefined,
          password: undefined,
          from: "ledgerline@example.test",
        });
        const options = {
          db,
          notifier: SILENT,
          contexts: [],
          transport,
          from: "ledgerline@example.test",
          maxAttempts: 3,
          log: silentLog,
        };
        const sent = await timed(() => sendDue(options));
        transport.close();
        if (sent.value !== count || smtp.messages.length !== count)
          throw new Error(`${sent.value} sent, ${smtp.messages.length} received, of ${count}`);
        return sent.seconds;
      },
    );
    await writeResult("notify", { notify_1000_s: round(seconds) });
    console.log(
      table([
        ["figure", "value", "target", "status"],
        [
          `deliver ${count.toLocaleString("en")} queued e-mails (s)`,
          round(seconds),
          "<= 10",
          check(seconds <= 10),
        ],
      ]),
    );
    console.log(loadNote());
  } finally {
    await smtp.stop();
  }
}
