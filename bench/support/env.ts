/** A positive number from the environment, or the default. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

export function envFlag(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  return raw === "1" || raw === "true" || raw === "yes";
}

/**
 * A benchmark's size: the variable when set, else the default times BENCH_SCALE (1 unless set;
 * `BENCH_SCALE=10` runs every benchmark at ten times its default size).
 */
export function envSize(name: string, fallback: number): number {
  return Math.round(envNumber(name, fallback * envNumber("BENCH_SCALE", 1)));
}
