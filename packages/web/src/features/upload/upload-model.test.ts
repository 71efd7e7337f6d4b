import { describe, expect, it } from "vitest";
import { problemListLabel, problemListOf, uploadIdOf } from "./upload-model.ts";

const headers =
  (values: Record<string, string>) =>
  (name: string): string | null =>
    values[name.toLowerCase()] ?? null;

describe("problemListOf", () => {
  it("offers the list when the refusal names the upload and its problem rows", () => {
    expect(problemListOf(headers({ "x-upload-id": "12", "x-upload-problems": "250" }))).toEqual({
      uploadId: 12,
      rows: 250,
    });
  });

  it("offers nothing without both headers or with a count that is not a positive number", () => {
    expect(problemListOf(headers({ "x-upload-id": "12" }))).toBeUndefined();
    expect(problemListOf(headers({ "x-upload-problems": "3" }))).toBeUndefined();
    expect(
      problemListOf(headers({ "x-upload-id": "12", "x-upload-problems": "0" })),
    ).toBeUndefined();
    expect(
      problemListOf(headers({ "x-upload-id": "12", "x-upload-problems": "" })),
    ).toBeUndefined();
  });
});

describe("uploadIdOf", () => {
  it("reads a positive whole id only", () => {
    expect(uploadIdOf(headers({ "x-upload-id": "7" }))).toBe(7);
    expect(uploadIdOf(headers({ "x-upload-id": "abc" }))).toBeUndefined();
    expect(uploadIdOf(headers({}))).toBeUndefined();
  });
});

describe("problemListLabel", () => {
  it("counts the rows", () => {
    expect(problemListLabel(250)).toBe("Download the problem list (250 rows)");
    expect(problemListLabel(1)).toBe("Download the problem list (1 row)");
  });
});
