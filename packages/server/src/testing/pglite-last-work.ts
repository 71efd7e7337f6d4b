// A process whose last work is closing the embedded database (run by db/pglite-thread.test.ts):
// nothing else holds it open meanwhile. `write` stores a row, `read` prints what is stored.
import { sql } from "kysely";
import { openDatabase } from "../db/connection.ts";

const [dir, step] = process.argv.slice(2);
const database = await openDatabase({ pgliteDir: dir });
if (step === "write") {
  await sql`create table kept (n int)`.execute(database.db);
  await sql`insert into kept values (42)`.execute(database.db);
  await database.close();
  console.log("closed");
} else {
  const { rows } = await sql`select n from kept`.execute(database.db);
  await database.close();
  console.log(JSON.stringify(rows));
}
