/**
 * `gadgets secrets` as a real child process: a value is set from stdin (and refused as an argument),
 * listed by name and size with the agents using it (never the value), read by a published agent, and
 * deleted.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { type CliEnvironment, newCliUser, runCli } from "./cli-process.ts";
import { workshopUrl } from "./helpers.ts";

vi.setConfig({ testTimeout: 120_000 });

const EXIT = { ok: 0, usage: 2, notFound: 12 };
const VALUE = `cli-secret-${Math.random().toString(36).slice(2)}`;

describe("gadgets secrets", () => {
  let owner: CliEnvironment;
  beforeAll(async () => {
    owner = newCliUser(workshopUrl());
    expect((await runCli(["login"], owner)).code).toBe(EXIT.ok);
    // An agent granted the secret, which reports only whether it got it.
    const folder = join(owner.cwd, "uses-secret");
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, "gadget.json"),
      JSON.stringify({ name: "uses-secret", entry: "index.ts", grants: { secrets: ["CLI_TOKEN"] } }),
    );
    writeFileSync(
      join(folder, "index.ts"),
      "export default { run: (_p: unknown, env: any) => ({ length: env.secrets.CLI_TOKEN?.length ?? 0 }) };\n",
    );
    const published = await runCli(["publish", "uses-secret"], owner);
    expect(published.code, published.stderr).toBe(EXIT.ok);
  });

  it("sets a secret from stdin, lists it without its value, an agent reads it, and rm deletes it", async () => {
    const asArgument = await runCli(["secrets", "set", "CLI_TOKEN", VALUE], owner);
    expect(asArgument.code).toBe(EXIT.usage);
    expect(asArgument.stderr).toContain("takes the value on stdin, never as an argument");

    const set = await runCli(["secrets", "set", "CLI_TOKEN"], owner, { stdin: `${VALUE}\n` });
    expect(set.code, set.stderr).toBe(EXIT.ok);
    expect(set.stderr).toContain(`Set secret CLI_TOKEN (${VALUE.length} bytes, used by uses-secret)`);

    const listed = await runCli(["secrets", "list"], owner);
    expect(listed.code, listed.stderr).toBe(EXIT.ok);
    expect(listed.stdout).toMatch(/^NAME\s+BYTES\s+SET\s+USED BY$/m);
    expect(listed.stdout).toMatch(
      new RegExp(`^CLI_TOKEN\\s+${VALUE.length}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\s+uses-secret$`, "m"),
    );
    const json = JSON.parse((await runCli(["secrets", "list", "--json"], owner)).stdout);
    expect(json).toEqual([
      { name: "CLI_TOKEN", bytes: VALUE.length, updatedAt: expect.any(Number), usedBy: ["uses-secret"] },
    ]);

    // The final line break of piped input is not part of the value.
    const called = await runCli(["call", "uses-secret", "--input", "{}"], owner);
    expect(called.code, called.stderr).toBe(EXIT.ok);
    expect(JSON.parse(called.stdout)).toEqual({ length: VALUE.length });

    const removed = await runCli(["secrets", "rm", "CLI_TOKEN"], owner);
    expect(removed.code, removed.stderr).toBe(EXIT.ok);
    expect((await runCli(["secrets", "rm", "CLI_TOKEN"], owner)).code).toBe(EXIT.notFound);
    expect((await runCli(["secrets", "list"], owner)).stderr).toContain("No secrets yet");

    for (const output of [set, listed, removed]) expect(output.stdout + output.stderr).not.toContain(VALUE);
  });

  it("refuses a bad name and an empty value, saying how to fix them", async () => {
    const badName = await runCli(["secrets", "set", "lower"], owner, { stdin: "a-valid-value" });
    expect(badName.code).toBe(EXIT.usage);
    expect(badName.stderr).toContain("upper-case letters");
    const empty = await runCli(["secrets", "set", "EMPTY"], owner, { stdin: "" });
    expect(empty.code).toBe(EXIT.usage);
    expect(empty.stderr).toContain("stdin was empty");
    expect((await runCli(["secrets", "nope"], owner)).code).toBe(EXIT.usage);
  });
});
