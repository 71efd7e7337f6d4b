import { describe, expect, it } from "vitest";
import { BREACHED_PASSWORD, isBreachedPassword, newPasswordProblem } from "./password-policy.ts";

describe("the breached-password list shipped with the server", () => {
  it("holds the common breached passwords of eight characters or more, in any case", async () => {
    for (const password of ["password", "12345678", "iloveyou1", "Password1", "TRUSTNO1"])
      expect(await isBreachedPassword(password), password).toBe(true);
  });

  it("does not hold passwords nobody has used", async () => {
    for (const password of ["k7#vq2zm", "a-new-passphrase-of-mine", "correct horse battery staple"])
      expect(await isBreachedPassword(password), password).toBe(false);
  });
});

describe("newPasswordProblem", () => {
  it("answers the length rule first, then the breached list, then nothing", async () => {
    expect(await newPasswordProblem("1234567")).toBe("Password must have at least 8 characters");
    expect(await newPasswordProblem("x".repeat(257))).toBe(
      "Password must have at most 256 characters",
    );
    expect(await newPasswordProblem("sunshine1")).toBe(BREACHED_PASSWORD);
    expect(BREACHED_PASSWORD).toBe(
      "This password appears in a list of breached passwords; choose another",
    );
    expect(await newPasswordProblem("k7#vq2zm")).toBeUndefined();
  });
});
