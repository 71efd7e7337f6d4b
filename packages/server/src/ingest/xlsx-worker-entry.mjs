// Worker threads do not inherit the TypeScript loader of the main thread: register it, then run the worker.
import { register } from "tsx/esm/api";

register();
await import("./xlsx-worker.ts");
