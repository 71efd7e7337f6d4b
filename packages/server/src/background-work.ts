/**
 * Work a request starts and does not wait for (the index builds after a first load), kept until
 * it settles, so that closing the server waits for it instead of cutting it off.
 */
export class BackgroundWork {
  private readonly running = new Set<Promise<void>>();

  /** Keeps `work` until it settles; a failure goes to `onError`. */
  add(work: Promise<unknown>, onError: (error: unknown) => void): void {
    const tracked: Promise<void> = work
      .then(() => undefined, onError)
      .finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }

  /** Settles once all the work added so far has. */
  async settled(): Promise<void> {
    await Promise.all(this.running);
  }
}
