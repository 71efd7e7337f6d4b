import { describe, expect, it } from "vitest";
import { type UserFormValues, userFormProblems } from "./user-form.ts";

const filled: UserFormValues = {
  username: "jane",
  name: "Jane Doe",
  email: "jane@example.com",
  password: "a-good-password",
  repeat: "a-good-password",
  isadmin: false,
  editPassword: false,
};
const none = new Set<string>();

describe("userFormProblems", () => {
  it("has no problem for a complete new user", () => {
    expect(userFormProblems(filled, "add", none)).toEqual({});
  });

  it("words each problem as SPEC.md section 5 does", () => {
    const empty = { ...filled, username: " ", name: "", email: "", password: "", repeat: "" };
    expect(userFormProblems(empty, "add", none)).toEqual({
      username: "required field",
      name: "required field",
      email: "required field",
      password: "required fields",
    });
    expect(userFormProblems({ ...filled, repeat: "other" }, "add", none)).toEqual({
      password: "passwords must match",
    });
  });

  it("finds a taken username whatever its case", () => {
    expect(userFormProblems({ ...filled, username: " JANE " }, "add", new Set(["jane"]))).toEqual({
      username: "username unavailable",
    });
  });

  it("checks the password length", () => {
    const short = { ...filled, password: "1234567", repeat: "1234567" };
    expect(userFormProblems(short, "add", none).password).toBe(
      "Password must have at least 8 characters",
    );
  });

  it("checks passwords on edit only when 'edit password' is ticked, and never the username", () => {
    const edit = { ...filled, password: "", repeat: "" };
    expect(userFormProblems(edit, "edit", new Set(["jane"]))).toEqual({});
    expect(userFormProblems({ ...edit, editPassword: true }, "edit", none)).toEqual({
      password: "required fields",
    });
  });
});
