/** How many ingests of this server may hold a transaction open while their file is read. */
export const READING_SLOTS = 3;

let reading = 0;

/**
 * Runs `work`, an ingest that holds a pooled connection and a transaction for as long as its file
 * is read (loadEmptyType, diffWhileReading), unless READING_SLOTS of them are under way: then
 * answers undefined without running it, and the ingest stages its file instead, taking a
 * connection only per statement. Keeps a burst of uploads from taking the whole pool.
 */
export async function inReadingSlot<T>(work: () => Promise<T | undefined>): Promise<T | undefined> {
  if (reading >= READING_SLOTS) return undefined;
  reading += 1;
  try {
    return await work();
  } finally {
    reading -= 1;
  }
}
