import { hash, verify } from "@node-rs/argon2";

// OWASP's first choice: argon2id, 19 MiB, 2 iterations, parallelism 1 (about 65 ms a hash here).
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real check, so an unknown username cannot be told apart by timing. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword("not-a-real-password-for-timing");
  await verifyPassword(await dummyHash, password);
  return false;
}

/** A message for a password that breaks the length rule, or undefined when it is fine. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN)
    return `Password must have at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX)
    return `Password must have at most ${PASSWORD_MAX} characters`;
  return undefined;
}
