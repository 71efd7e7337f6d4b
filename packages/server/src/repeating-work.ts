/** Work repeated in the background until stopped. */
export interface RepeatingWork {
  /** Stops the repetition and waits for a round under way. */
  stop(): Promise<void>;
}

/**
 * Runs `round` at once and then `everyMs` after each round ends (never two at once); a failed
 * round goes to `onError` and the next one runs as planned.
 */
export function repeatEvery(
  round: () => Promise<unknown>,
  everyMs: number,
  onError: (error: unknown) => void,
): RepeatingWork {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const next = () => {
    running = round()
      .catch(onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(next, everyMs);
      });
  };
  timer = setTimeout(next, 0);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
