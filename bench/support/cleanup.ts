const pending = new Set<() => Promise<void>>();

/** Registers work that must run even when the bench is interrupted (dropping its database). */
export function onInterrupt(task: () => Promise<void>): () => void {
  pending.add(task);
  return () => pending.delete(task);
}

/** On SIGINT/SIGTERM: runs the registered tasks, then exits. */
export function installInterruptHandler(): void {
  const handler = async (signal: string) => {
    console.error(`\n${signal}: cleaning up`);
    for (const task of [...pending].reverse()) await task().catch(() => undefined);
    process.exit(130);
  };
  process.once("SIGINT", () => void handler("SIGINT"));
  process.once("SIGTERM", () => void handler("SIGTERM"));
}
