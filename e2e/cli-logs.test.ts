/**
 * `gadgets logs` as a real child process: an agent's recent runs (made by `gadgets call`), oldest first,
 * narrowed by how they started; `--follow` prints a run made while it is running, with its console
 * lines, and ends cleanly on Ctrl+C.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { type CliEnvironment, newCliUser, runCli, startCli } from "./cli-process.ts";
import { workshopUrl } from "./helpers.ts";

vi.setConfig({ testTimeout: 120_000 });

const EXIT = { ok: 0, user: 1, usage: 2, notFound: 12 };
const TALKER = `export default {
  async run({ say }: { say: string }) {
    console.log("heard", say);
    if (say === "fail") throw new Error("told to fail");
    return \`said \${say}\`;
  },
};
`;
/** A line of `gadgets logs`: time, outcome, duration, what ran, who started it, the run id. */
const LINE =
  /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC {2}(\S.*?) +\d+(?:\.\d)? m?s {2}talker@1 {2}API {2}[A-Za-z0-9_-]{22}$/;

describe("gadgets logs", () => {
  let user: CliEnvironment;
  beforeAll(async () => {
    user = newCliUser(workshopUrl());
    expect((await runCli(["login"], user)).code).toBe(EXIT.ok);
    expect((await runCli(["init", "talker"], user)).code).toBe(EXIT.ok);
    writeFileSync(join(user.cwd, "talker", "gadget.json"), JSON.stringify({ name: "talker", entry: "index.ts" }));
    writeFileSync(join(user.cwd, "talker", "index.ts"), TALKER);
    expect((await runCli(["publish", "talker"], user)).code).toBe(EXIT.ok);
    expect((await runCli(["call", "talker", "--input", '{"say":"first"}'], user)).code).toBe(EXIT.ok);
    expect((await runCli(["call", "talker", "--input", '{"say":"fail"}'], user)).code).toBe(EXIT.user);
  });

  it("lists the agent's runs made by gadgets call, oldest first, with their outcome in words", async () => {
    const listed = await runCli(["logs", "talker"], user);
    expect(listed.code, listed.stderr).toBe(EXIT.ok);
    const lines = listed.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines.map((line) => LINE.exec(line)?.[1]?.trim())).toEqual(["ok", "threw"]);

    const json = await runCli(["logs", "talker", "--json", "--limit", "1"], user);
    expect(json.code, json.stderr).toBe(EXIT.ok);
    const rows = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(rows).toMatchObject([{ name: "talker", status: "error", kind: "user", source: { kind: "agent" } }]);

    const none = await runCli(["logs", "talker", "--via", "http"], user);
    expect(none.code, none.stderr).toBe(EXIT.ok);
    expect(none.stdout).toBe("");
    expect(none.stderr).toContain("No runs of talker yet.");
  });

  it("refuses an unknown agent (12) and a bad --via or --limit (2), saying what is wrong", async () => {
    const unknown = await runCli(["logs", "nobody"], user);
    expect(unknown.code).toBe(EXIT.notFound);
    expect(unknown.stderr).toContain('No published agent "nobody" in this workspace');
    expect(unknown.stderr).toContain("gadgets agents");
    const via = await runCli(["logs", "talker", "--via", "email"], user);
    expect(via.code).toBe(EXIT.usage);
    expect(via.stderr).toContain("--via must be one of rpc, mcp, http, schedule");
    const limit = await runCli(["logs", "talker", "--limit", "0"], user);
    expect(limit.code).toBe(EXIT.usage);
    expect(limit.stderr).toContain("--limit must be a whole number from 1 to 200");
  });

  it("--follow prints a run made while it runs, with its console lines, and ends with 0 on Ctrl+C", async () => {
    // With --limit 1 it shows one run at first; the older one is not new when the first poll lists it.
    const follow = startCli(["logs", "talker", "--follow", "--limit", "1"], user);
    try {
      await follow.waitFor("Following the runs of talker", "stderr");
      await follow.waitFor("talker@1", "stdout");
      expect(follow.stdout().trim().split("\n")).toHaveLength(1);
      expect((await runCli(["call", "talker", "--input", '{"say":"while following"}'], user)).code).toBe(EXIT.ok);
      await follow.waitFor(/heard while following/, "stderr");
      await follow.waitFor(/talker@1[\s\S]*talker@1/, "stdout");
      const lines = follow.stdout().trim().split("\n");
      expect(lines).toHaveLength(2);
      expect(LINE.exec(lines[1] ?? "")?.[1]?.trim()).toBe("ok");
      // The backlog is listed without its console; only new runs bring theirs.
      expect(follow.stderr()).not.toContain("heard first");
    } finally {
      follow.child.kill("SIGINT");
    }
    const exit = await follow.exited;
    expect(exit.code).toBe(EXIT.ok);
  });
});
