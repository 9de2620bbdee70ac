/** `gadgets code` as a real child process: Code Mode from a terminal, and the declaration it is written against. */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { type CliEnvironment, newCliUser, runCli } from "./cli-process.ts";
import { workshopUrl } from "./helpers.ts";

vi.setConfig({ testTimeout: 120_000 });

describe("gadgets code", () => {
  let user: CliEnvironment;
  beforeAll(async () => {
    user = newCliUser(workshopUrl());
    expect((await runCli(["login"], user)).code).toBe(0);
    expect((await runCli(["init", "echo"], user)).code).toBe(0);
    expect((await runCli(["publish", "echo"], user)).code).toBe(0);
  });

  it("prints the declaration of the workspace's agents", async () => {
    const types = await runCli(["code", "--types"], user);
    expect(types.code, types.stderr).toBe(0);
    expect(types.stdout).toMatch(/declare const agents: \{[\s\S]*echo\(/);
  });

  it("runs code from stdin against the agents, streaming its console and printing the result", async () => {
    const code =
      'const r = await agents.echo({ input: "from the terminal" });\nconsole.log("echo said", r);\nreturn { r };';
    const ran = await runCli(["code", "-", "--json"], user, { stdin: code });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain("from the terminal");
    expect(ran.stderr + ran.stdout).toContain("echo said");
  });

  it("maps an error into the file that was run, and exits with the outcome's code", async () => {
    const file = join(user.cwd, "fails.ts");
    writeFileSync(file, 'console.log("first");\nthrow new Error("the code gave up");\n');
    const ran = await runCli(["code", file], user);
    expect(ran.code).not.toBe(0);
    expect(ran.stderr + ran.stdout).toContain("the code gave up");
    expect(ran.stderr + ran.stdout).toMatch(/code\.ts:2:\d+/);
    const usage = await runCli(["code"], user);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("gadgets code --types");
  });
});
