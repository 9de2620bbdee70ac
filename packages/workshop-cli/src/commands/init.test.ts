import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { CliError } from "../cli-error.ts";
import type { CommandContext } from "../command.ts";
import { EXIT } from "../exit-codes.ts";
import { painter } from "../terminal-style.ts";
import { init } from "./init.ts";

function initIn(folder: string) {
  const out = { stdout: "", stderr: "" };
  const context: CommandContext = {
    positionals: [folder],
    flags: {},
    streams: { stdout: { write: (text) => (out.stdout += text) }, stderr: { write: (text) => (out.stderr += text) } },
    paint: painter(false),
    target: () => {
      throw new Error("init needs no Workshop");
    },
    interrupted: new AbortController().signal,
  };
  return { run: () => init.run(context), out };
}

async function refusal(folder: string): Promise<CliError> {
  try {
    await initIn(folder).run();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error("init wrote the folder");
}

const scratch = () => mkdtempSync(join(tmpdir(), "gadgets-init-"));

describe("gadgets init", () => {
  it("writes the template into a new folder", async () => {
    const folder = join(scratch(), "g");
    expect(await initIn(folder).run()).toBe(EXIT.ok);
    expect(readdirSync(folder).sort()).toEqual(["gadget-env.d.ts", "gadget.json", "index.ts", "tsconfig.json"]);
  });

  it("refuses a folder that is a link to nowhere, naming the link, and writes nothing", async () => {
    const base = scratch();
    const folder = join(base, "g");
    symlinkSync(join(base, "missing"), folder);
    const error = await refusal(folder);
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toContain(`is a link to ${join(base, "missing")}, which does not exist`);
    expect(existsSync(join(base, "missing"))).toBe(false);
  });

  it("refuses a folder under a link to nowhere", async () => {
    const base = scratch();
    symlinkSync(join(base, "missing"), join(base, "parent"));
    const error = await refusal(join(base, "parent", "g"));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toContain(`${relative(process.cwd(), join(base, "parent"))} is a link to`);
  });

  it("counts a link to nowhere where a file would go as a file already there, and writes none of them", async () => {
    const folder = join(scratch(), "g");
    mkdirSync(folder);
    symlinkSync(join(folder, "missing.json"), join(folder, "tsconfig.json"));
    const error = await refusal(folder);
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toContain("already has tsconfig.json; nothing was written");
    expect(readdirSync(folder)).toEqual(["tsconfig.json"]);
    expect(lstatSync(join(folder, "tsconfig.json")).isSymbolicLink()).toBe(true);
  });

  it("says what could not be written, with a usage exit, when the folder cannot be made", async () => {
    const base = scratch();
    const file = join(base, "file");
    // A file where a parent folder should be.
    writeFileSync(file, "");
    const error = await refusal(join(file, "g"));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toMatch(/cannot write .*: ENOTDIR/i);
  });
});
