import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export const RESULTS_DIR = path.resolve(import.meta.dirname, "../results");

export interface BenchResult {
  name: string;
  when: string;
  node: string;
  figures: Record<string, number>;
}

/** Writes bench/results/<name>.json (DESIGN.md §14) and answers its path. */
export async function writeResult(name: string, figures: Record<string, number>): Promise<string> {
  const result: BenchResult = {
    name,
    when: new Date().toISOString(),
    node: process.version,
    figures,
  };
  await fs.mkdir(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.json`);
  await fs.writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

/** One line naming the machine, for the printed report and docs/performance.md. */
export function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} x ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

/** A plain-text table: the first row is the header. */
export function table(rows: readonly (readonly (string | number)[])[]): string {
  const text = rows.map((r) => r.map((c) => (typeof c === "number" ? fmt(c) : c)));
  const widths = text[0].map((_, i) => Math.max(...text.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [
    line(text[0]),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...text.slice(1).map(line),
  ].join("\n");
}

function fmt(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}

/** Rounds a figure for the JSON file. */
export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** The 1-minute load average, with a warning when other work competes for the CPUs. */
export function loadNote(): string {
  const [one] = os.loadavg();
  const cpus = os.cpus().length;
  const busy = one > cpus ? ` (above ${cpus} CPUs: other work competes, figures are noisy)` : "";
  return `load average ${one.toFixed(1)}${busy}`;
}
