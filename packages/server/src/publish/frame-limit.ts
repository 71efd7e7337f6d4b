/**
 * How many frames one connection may send within a sliding window. A screen sends 'status' when it
 * connects and 'publish' on a click; each frame costs a database round trip, so a client that
 * sends more than this is not a screen and is cut off.
 */
export const FRAME_LIMIT = { frames: 10, windowMs: 10_000 };

/** Answers, for each frame as it comes, whether it is within the limit. */
export function frameCounter(
  limit: { frames: number; windowMs: number } = FRAME_LIMIT,
  now: () => number = () => performance.now(),
): () => boolean {
  const times: number[] = [];
  return () => {
    const at = now();
    while (times.length > 0 && at - times[0] >= limit.windowMs) times.shift();
    if (times.length >= limit.frames) return false;
    times.push(at);
    return true;
  };
}
