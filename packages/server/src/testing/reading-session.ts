import pg from "pg";

/**
 * Runs `fn` while another session of the PostgreSQL database at `url` keeps `table` open for
 * reading (a read in a transaction left open), as a slow list would.
 */
export async function whileAnotherSessionReads<T>(
  url: string,
  table: string,
  fn: () => Promise<T>,
): Promise<T> {
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  try {
    await other.query("begin");
    await other.query(`select count(*) from ${table}`);
    return await fn();
  } finally {
    await other.query("rollback");
    await other.end();
  }
}
