// Worker threads do not inherit the TypeScript loader of the main thread: register it, then run the worker.
import { register } from "tsx/esm/api";

register();
// Lowered before the worker's modules load: from source, loading them is most of a thread's start.
await import("./lower-thread-priority.ts");
await import("./xlsx-worker.ts");
