import { describe, expect, it } from "vitest";
import { checkEmailChange, checkPasswordChange, emptyPasswordChange } from "./account-forms.ts";

describe("checkPasswordChange", () => {
  it("asks for every field of an empty form", () => {
    expect(checkPasswordChange(emptyPasswordChange)).toEqual({
      request: null,
      problems: {
        currentPassword: "Current password is required",
        newPassword: "New password is required",
      },
    });
  });

  it("applies the length rules in the server's words and wants the repeat to match", () => {
    const short = checkPasswordChange({ currentPassword: "x", newPassword: "1234567", repeat: "" });
    expect(short.problems).toEqual({
      newPassword: "Password must have at least 8 characters",
      repeat: "The new passwords do not match",
    });
    const long = "x".repeat(257);
    expect(
      checkPasswordChange({ currentPassword: "x", newPassword: long, repeat: long }).problems,
    ).toEqual({ newPassword: "Password must have at most 256 characters" });
  });

  it("answers the request once the form is complete", () => {
    expect(
      checkPasswordChange({
        currentPassword: "old-one",
        newPassword: "a-new-passphrase",
        repeat: "a-new-passphrase",
      }),
    ).toEqual({
      request: { currentPassword: "old-one", newPassword: "a-new-passphrase" },
      problems: null,
    });
  });
});

describe("checkEmailChange", () => {
  it("wants an e-mail address and the current password", () => {
    expect(checkEmailChange({ email: "not an address", currentPassword: "" }).problems).toEqual({
      email: "Enter an e-mail address such as name@example.com",
      currentPassword: "Current password is required",
    });
    expect(checkEmailChange({ email: " ", currentPassword: "x" }).problems).toEqual({
      email: "E-mail address is required",
    });
  });

  it("answers the request with the address trimmed", () => {
    expect(checkEmailChange({ email: " ann@example.com ", currentPassword: "pw" })).toEqual({
      request: { email: "ann@example.com", currentPassword: "pw" },
      problems: null,
    });
  });
});
