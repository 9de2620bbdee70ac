import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CliError } from "./cli-error.ts";
import { EXIT } from "./exit-codes.ts";
import { readInputFile } from "./input-file.ts";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function refusal(read: () => unknown): CliError {
  try {
    read();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("readInputFile", () => {
  it("reads a file within the limit, and refuses a folder, a missing file and one too large, naming it", () => {
    const root = mkdtempSync(join(tmpdir(), "gadget-input-"));
    roots.push(root);
    writeFileSync(join(root, "a.json"), "[1]");
    const tooLarge = (size: number) => `${size} is too many`;
    expect(readInputFile(join(root, "a.json"), 3, tooLarge)).toBe("[1]");
    const large = refusal(() => readInputFile(join(root, "a.json"), 2, tooLarge));
    expect([large.exitCode, large.message]).toEqual([EXIT.invalid, "3 is too many"]);
    const folder = refusal(() => readInputFile(root, 10, tooLarge));
    expect([folder.exitCode, folder.message]).toEqual([EXIT.usage, `${root} is not a file: give a file to read.`]);
    const missing = refusal(() => readInputFile(join(root, "gone.json"), 10, tooLarge));
    expect(missing.exitCode).toBe(EXIT.usage);
    expect(missing.message).toContain("gone.json: cannot read it");
  });
});
