// Imported for its effect, first, by the parser thread: lowers the thread's scheduling priority
// (Linux keeps a niceness per thread), so that however many files are being read, the server's
// own thread, which answers every other request, gets a core first. A thread may lower its own
// priority without any privilege; where it cannot (another system), it keeps the server's.
import { readlinkSync } from "node:fs";
import os from "node:os";

const PARSER_NICENESS = 10;

if (process.platform === "linux") {
  try {
    // "/proc/thread-self" links to "<pid>/task/<thread id>".
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (os.getPriority(threadId) < PARSER_NICENESS) os.setPriority(threadId, PARSER_NICENESS);
  } catch {
    // Left at the server's priority: the parse is bounded by its time and the line all the same.
  }
}
