/**
 * `gadgets keys` as a real child process: the owner makes keys (printed once), lists and revokes them;
 * someone logged in with a key calls agents, is refused what its scope does not allow (exit 11), and
 * is refused altogether once the key is revoked.
 */

import { beforeAll, describe, expect, it, vi } from "vitest";
import { type CliEnvironment, newCliUser, runCli } from "./cli-process.ts";
import { workshopUrl } from "./helpers.ts";

vi.setConfig({ testTimeout: 120_000 });

const EXIT = { ok: 0, usage: 2, auth: 11, notFound: 12 };

describe("gadgets keys", () => {
  let owner: CliEnvironment;
  beforeAll(async () => {
    owner = newCliUser(workshopUrl());
    expect((await runCli(["login"], owner)).code).toBe(EXIT.ok);
    expect((await runCli(["init", "echo"], owner)).code).toBe(EXIT.ok);
    expect((await runCli(["init", "other"], owner)).code).toBe(EXIT.ok);
    expect((await runCli(["publish", "echo"], owner)).code).toBe(EXIT.ok);
    expect((await runCli(["publish", "other"], owner)).code).toBe(EXIT.ok);
  });

  it("makes a key, prints it once on stdout with a warning, lists it, and a key user calls agents with it", async () => {
    const made = await runCli(["keys", "create", "claude-desktop", "--agent", "echo"], owner);
    expect(made.code, made.stderr).toBe(EXIT.ok);
    const key = made.stdout.trim();
    expect(key).toMatch(/^gk_[A-Za-z0-9_-]{65}$/);
    expect(made.stderr).toContain("This is the only time the key is shown");
    expect(made.stderr).not.toContain(key);
    const keyId = /Created API key ([A-Za-z0-9_-]{22}) "claude-desktop" \(scope call, 1 agent\(s\)\)/.exec(
      made.stderr,
    )?.[1];
    expect(keyId, made.stderr).toBeDefined();

    const full = await runCli(["keys", "create", "ci", "--scope", "full", "--json"], owner);
    expect(full.code, full.stderr).toBe(EXIT.ok);
    expect(JSON.parse(full.stdout)).toMatchObject({ key: expect.stringMatching(/^gk_/), info: { scope: "full" } });

    const listed = await runCli(["keys", "list"], owner);
    expect(listed.code, listed.stderr).toBe(EXIT.ok);
    const lines = listed.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^KEY ID\s+NAME\s+SCOPE\s+AGENTS\s+CREATED\s+LAST USED$/);
    expect(listed.stdout).toMatch(
      new RegExp(
        `^${keyId}\\s+claude-desktop\\s+call\\s+echo\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\s+never$`,
        "m",
      ),
    );
    expect(listed.stdout).toMatch(/\s+ci\s+full\s+all\s+/);
    expect(listed.stdout).not.toContain(key.slice(25));
    expect(JSON.parse((await runCli(["keys", "list", "--json"], owner)).stdout)).toContainEqual(
      expect.objectContaining({ keyId, name: "claude-desktop", scope: "call" }),
    );

    // Someone else logs in with the key (from stdin) and uses it.
    const guest = newCliUser(workshopUrl());
    const login = await runCli(["login", "--token", "-"], guest, { stdin: key });
    expect(login.code, login.stderr).toBe(EXIT.ok);
    expect(login.stderr).toContain("The API key is saved");
    const agents = await runCli(["agents"], guest);
    expect(agents.code, agents.stderr).toBe(EXIT.ok);
    expect(agents.stdout).toMatch(/^echo@1\s/m);
    expect(agents.stdout).not.toContain("other@1");
    const called = await runCli(["call", "echo", "--input", '{"input":"hi"}'], guest);
    expect(called.code, called.stderr).toBe(EXIT.ok);
    expect(JSON.parse(called.stdout)).toBe("Echo: hi");
    expect((await runCli(["call", "other", "--input", '{"input":"hi"}'], guest)).code).not.toBe(EXIT.ok);
    const used = await runCli(["keys", "list"], owner);
    expect(used.stdout).toMatch(
      new RegExp(
        `^${keyId}\\s+claude-desktop\\s+call\\s+echo\\s+.+ UTC\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`,
        "m",
      ),
    );

    // What its scope does not allow ends with the credentials' exit code, saying why.
    const keys = await runCli(["keys", "list"], guest);
    expect(keys.code).toBe(EXIT.auth);
    expect(keys.stderr).toContain("API keys are managed with the workspace token only");
    const share = await runCli(["share", "echo"], { ...guest, cwd: owner.cwd });
    expect(share.code).toBe(EXIT.auth);
    expect(share.stderr).toContain("This API key (scope call) may only list and run published agents");

    // Revoked: refused at once, and the owner is told when there is nothing left to revoke.
    const revoked = await runCli(["keys", "revoke", keyId as string], owner);
    expect(revoked.code, revoked.stderr).toBe(EXIT.ok);
    expect(revoked.stderr).toContain(`Revoked API key ${keyId}`);
    const again = await runCli(["keys", "revoke", keyId as string], owner);
    expect(again.code).toBe(EXIT.notFound);
    expect(again.stderr).toContain(`No API key ${keyId} in this workspace`);
    const after = await runCli(["agents"], guest);
    expect(after.code).toBe(EXIT.auth);
    expect(after.stderr).toContain("refused the API key from the token saved in");
    expect(after.stderr).toContain("Unknown API key");
  });

  it("says how to use it when the action, the name or the scope is missing or wrong", async () => {
    for (const args of [["keys"], ["keys", "frob"], ["keys", "create"], ["keys", "revoke"]]) {
      const refused = await runCli(args, owner);
      expect(refused.code, args.join(" ")).toBe(EXIT.usage);
      expect(refused.stderr, args.join(" ")).toMatch(/gadgets keys/);
    }
    const scope = await runCli(["keys", "create", "k", "--scope", "owner"], owner);
    expect(scope.code).toBe(EXIT.usage);
    expect(scope.stderr).toContain("--scope must be call");
    const unknownAgent = await runCli(["keys", "create", "k", "--agent", "no-such-agent"], owner);
    expect(unknownAgent.code).toBe(EXIT.notFound);
    expect(unknownAgent.stderr).toContain('No published agent "no-such-agent"');
  });
});
