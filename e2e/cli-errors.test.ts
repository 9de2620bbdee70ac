/**
 * Bad input to the `gadgets` command line: each gets a message that says what happened and how to fix
 * it, and an exit code of its own (see packages/workshop-cli/src/exit-codes.ts).
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRpcClient, MAX_FILE_BYTES, MAX_PAYLOAD_BYTES } from "@gadgets/workshop-shared";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type CliEnvironment, newCliUser, runCli, startCli } from "./cli-process.ts";
import { ECHO_SOURCE, eventually, gadget, workshopUrl } from "./helpers.ts";

// Each test spawns the real command line several times; on a loaded machine that takes a while.
vi.setConfig({ testTimeout: 120_000 });

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

function echoFolder(user: CliEnvironment, name: string, extra: Record<string, string> = {}): string {
  const folder = join(user.cwd, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "gadget.json"), JSON.stringify({ name, entry: "index.ts" }));
  writeFileSync(join(folder, "index.ts"), ECHO_SOURCE);
  for (const [path, content] of Object.entries(extra)) {
    mkdirSync(join(folder, path, ".."), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
  return folder;
}

describe("gadgets with bad input", () => {
  let user: CliEnvironment;
  beforeAll(async () => {
    user = newCliUser(workshopUrl());
    expect((await runCli(["login"], user)).code).toBe(0);
  });

  it("exits 3 for a folder without a manifest, naming the folder and how to make one", async () => {
    mkdirSync(join(user.cwd, "plain"));
    writeFileSync(join(user.cwd, "plain", "index.ts"), ECHO_SOURCE);
    for (const command of ["run", "dev", "publish", "share"]) {
      const result = await runCli([command, "plain"], user);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain("plain: no gadget.json here, so this is not a gadget folder");
      expect(result.stderr).toContain("gadgets init plain");
    }
    expect((await runCli(["run", "missing-folder"], user)).code).toBe(3);
  });

  it("accepts a file at the size limit, refuses one byte more, and leaves out what .gitignore lists", async () => {
    echoFolder(user, "sized", { "data.txt": "a".repeat(MAX_FILE_BYTES) });
    const atLimit = await runCli(["run", "sized", "--input", '{"input":"ok"}'], user);
    expect(atLimit.code).toBe(0);

    writeFileSync(join(user.cwd, "sized", "data.txt"), "a".repeat(MAX_FILE_BYTES + 1));
    const over = await runCli(["run", "sized"], user);
    expect(over.code).toBe(3);
    expect(over.stderr).toContain(
      `"data.txt" is ${MAX_FILE_BYTES + 1} bytes; the limit is ${MAX_FILE_BYTES} bytes per file`,
    );
    expect(over.stderr).toContain("list it in .gitignore");

    writeFileSync(join(user.cwd, "sized", ".gitignore"), "data.txt\n");
    mkdirSync(join(user.cwd, "sized", "node_modules", "dep"), { recursive: true });
    writeFileSync(join(user.cwd, "sized", "node_modules", "dep", "index.js"), "x".repeat(MAX_FILE_BYTES + 1));
    writeFileSync(join(user.cwd, "sized", ".env"), "SECRET=1");
    const ignored = await runCli(["run", "sized", "--input", '{"input":"ok"}', "--share"], user);
    expect(ignored.code).toBe(0);
    const recordId = /\/r\/([A-Za-z0-9_-]{22})/.exec(ignored.stderr)?.[1] as string;
    using client = createRpcClient({ url: workshopUrl() });
    const record = await client.api.openRecord(recordId).record();
    expect(record.files.map((file) => file.path).sort()).toEqual(["gadget.json", "index.ts"]);
  });

  it("exits 3 for a file the Workshop cannot take and for a payload over the limit", async () => {
    echoFolder(user, "pictures", { "logo.png": "not really a png" });
    const unsupported = await runCli(["run", "pictures"], user);
    expect(unsupported.code).toBe(3);
    expect(unsupported.stderr).toContain('File "logo.png" has an unsupported type');

    echoFolder(user, "payloads");
    const atLimit = join(user.cwd, "at-limit.json");
    // {"input":"…"} is 12 bytes around the string.
    writeFileSync(atLimit, JSON.stringify({ input: "a".repeat(MAX_PAYLOAD_BYTES - 12) }));
    expect((await runCli(["run", "payloads", "--input-file", atLimit], user)).code).toBe(0);
    const overLimit = join(user.cwd, "over-limit.json");
    writeFileSync(overLimit, JSON.stringify({ input: "a".repeat(MAX_PAYLOAD_BYTES - 11) }));
    const over = await runCli(["run", "payloads", "--input-file", overLimit], user);
    expect(over.code).toBe(3);
    expect(over.stderr).toContain(`the limit for a payload is ${MAX_PAYLOAD_BYTES} bytes`);
  });

  it("exits 2 for a bad command line", async () => {
    echoFolder(user, "flags");
    const cases: [string[], string][] = [
      [["run", "flags", "--input", "{input: hi}"], "--input is not valid JSON"],
      [["run", "flags", "--input", "{}", "--input-file", "x.json"], "not both"],
      [["run", "flags", "--timeout", "99999"], "--timeout must be a whole number of milliseconds from 1 to 30000"],
      [["run", "flags", "--frobnicate"], "Unknown option '--frobnicate'"],
      [["run", "flags", "other"], "Too many arguments"],
      [["frobnicate"], 'Unknown command "frobnicate"'],
      [["call"], "Name the agent to call"],
      [["init", "x", "--template", "nope"], 'Unknown template "nope": choose one of echo'],
      [["run", "flags", "--url", "ftp://example.com"], "is not an http(s) URL"],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, user);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toContain(message);
    }
  });

  it("exits 10 when no Workshop answers, naming the URL and how to start one", async () => {
    echoFolder(user, "offline");
    const url = `http://127.0.0.1:${await closedPort()}`;
    const token = `gw_${"a".repeat(43)}`;
    for (const args of [
      ["run", "offline", "--url", url, "--token", token],
      ["agents", "--url", url, "--token", token],
      ["login", "--url", url],
      // No token saved for a mistyped URL: what is wrong is the URL.
      ["agents", "--url", url],
      ["--url", url, "--token", token, "agents"],
      ["--no-color", "--url", url, "run", "offline"],
    ]) {
      const result = await runCli(args, user);
      expect(result.code).toBe(10);
      expect(result.stderr).toContain(`Cannot reach a Workshop at ${url}`);
      expect(result.stderr).toContain("npx -y pnpm@12.4.2 start");
      expect(result.stderr).not.toContain(token);
    }
  });

  it("exits 11 for a missing, malformed or unknown (revoked) token, and never sends a token to another URL", async () => {
    echoFolder(user, "tokens");
    const unknown = await runCli(["run", "tokens", "--token", `gw_${"b".repeat(43)}`], user);
    expect(unknown.code).toBe(11);
    expect(unknown.stderr).toContain("Unknown workspace token");
    expect(unknown.stderr).toContain("gadgets login");

    const malformed = await runCli(["agents"], { ...user, extra: { WORKSHOP_TOKEN: "not-a-token" } });
    expect(malformed.code).toBe(11);
    expect(malformed.stderr).toContain("refused the workspace token from WORKSHOP_TOKEN: Invalid workspace token");

    // The saved token belongs to the logged-in URL; another URL (even the same server named differently) gets none.
    const elsewhere = await runCli(["agents", "--url", workshopUrl().replace("127.0.0.1", "localhost")], user);
    expect(elsewhere.code).toBe(11);
    expect(elsewhere.stderr).toContain("No workspace token for http://localhost:");

    const stranger = newCliUser(workshopUrl());
    const none = await runCli(["run", "tokens"], { ...stranger, cwd: user.cwd });
    expect(none.code).toBe(11);
    expect(none.stderr).toContain("Run `gadgets login`");
  });

  it("takes the global options before the command's name", async () => {
    const agents = await runCli(["--url", workshopUrl(), "--no-color", "agents", "--json"], user);
    expect(agents.code, agents.stderr).toBe(0);
    expect(JSON.parse(agents.stdout)).toEqual([]);
    const token = `gw_${"c".repeat(43)}`;
    const refused = await runCli(["--token", token, "agents"], user);
    expect(refused.code).toBe(11);
    expect(refused.stderr).toContain("refused the workspace token from --token");
  });

  it("exits 12 for an agent that does not exist", async () => {
    const result = await runCli(["call", "no-such-agent", "--input", "{}"], user);
    expect(result.code).toBe(12);
    expect(result.stderr).toContain('No agent "no-such-agent" in this workspace');
  });

  it("exits 2 for a config file that is not one, saying how to fix it", async () => {
    const broken = newCliUser(workshopUrl());
    mkdirSync(join(broken.configHome, "gadgets"), { recursive: true });
    writeFileSync(join(broken.configHome, "gadgets", "config.json"), "{ nope");
    const result = await runCli(["agents"], broken);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is not a gadgets config");
  });
});

describe("gadgets on a busy Workshop", () => {
  let server: WorkshopServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "workshop-cli-busy-"));
    server = await startWorkshopServer({ dataDir, pool: { size: 1, maxRuns: 2 } });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("exits 8 with the Workshop's message while a greedy workspace fills the pool, and runs once it frees", async () => {
    const user = newCliUser(server.url);
    expect((await runCli(["login"], user)).code).toBe(0);
    echoFolder(user, "patient");

    // Two greedy workspaces: one spins on the only runner, the other waits: the server takes 2 runs in all.
    using boot = createRpcClient({ url: server.url });
    const greedy = [];
    for (let i = 0; i < 2; i++) {
      const { token } = await boot.createWorkspace();
      const client = createRpcClient({ url: server.url, token });
      greedy.push({ client, session: client.getSession() });
    }
    const [spinner, waiter] = greedy as [(typeof greedy)[number], (typeof greedy)[number]];
    const spin = await spinner.session.createDraft({
      files: gadget("export default { async run() { while (true) {} } };"),
    });
    const echo = await waiter.session.createDraft({ files: gadget(ECHO_SOURCE) });
    const spinning = spinner.session.runDraft(spin.id, {}, undefined, { timeoutMs: 5000 });
    await expect.poll(() => server.poolStats()?.active, { timeout: 10_000 }).toBe(1);
    const queued = waiter.session.runDraft(echo.id, { input: "queued" }, undefined, { timeoutMs: 20_000 });
    await expect.poll(() => server.poolStats()?.queued, { timeout: 10_000 }).toBe(1);

    const refused = await runCli(["run", "patient", "--input", '{"input":"now"}'], user);
    expect(refused.code).toBe(8);
    expect(refused.stderr).toMatch(/✗ busy: The server is busy: 2 runs from all workspaces/);

    expect(await spinning).toMatchObject({ status: "error", kind: "timeout" });
    expect(await queued).toMatchObject({ status: "ok", result: "Echo: queued" });
    for (const { client } of greedy) client[Symbol.dispose]();
    const later = await runCli(["run", "patient", "--input", '{"input":"later"}'], user);
    expect(later.code).toBe(0);
    expect(JSON.parse(later.stdout)).toBe("Echo: later");
  });
});

describe("gadgets whose reader went away", () => {
  /** Logs a line every 20 ms for 20 s: only a cancel ends it early. */
  const CHATTY_SOURCE = `export default {
  async run() {
    for (let i = 0; i < 1000; i++) {
      console.log("line", i);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return "done";
  },
};
`;

  let user: CliEnvironment;
  beforeAll(async () => {
    user = newCliUser(workshopUrl());
    expect((await runCli(["login"], user)).code).toBe(0);
    mkdirSync(join(user.cwd, "chatty"));
    writeFileSync(join(user.cwd, "chatty", "gadget.json"), JSON.stringify({ name: "chatty", entry: "index.ts" }));
    writeFileSync(join(user.cwd, "chatty", "index.ts"), CHATTY_SOURCE);
    expect((await runCli(["publish", "chatty"], user)).code).toBe(0);
  });

  it("stops quietly with 141 and cancels the run when stdout's reader closes (| head)", async () => {
    const config = JSON.parse(readFileSync(join(user.configHome, "gadgets", "config.json"), "utf8"));
    using client = createRpcClient({ url: workshopUrl(), token: config.workspaces[workshopUrl()].token });
    const session = client.getSession();
    for (const args of [
      ["run", "chatty", "--json", "--timeout", "30000"],
      ["call", "chatty", "--json", "--timeout", "30000"],
    ]) {
      const cli = startCli(args, user);
      await cli.waitFor("\n", "stdout");
      const first = JSON.parse(cli.stdout().split("\n")[0] as string);
      // What `head -1` does once it has its line.
      cli.child.stdout?.destroy();
      const exit = await cli.exited;
      expect({ args, code: exit.code, signal: exit.signal }).toEqual({ args, code: 141, signal: null });
      expect(cli.stderr()).not.toMatch(/EPIPE|Error|\n\s+at /);
      let kind: string | undefined;
      await eventually(
        async () => {
          kind = (await session.getRun(first.runId).catch(() => undefined))?.kind;
          return kind !== undefined;
        },
        100,
        100,
      );
      expect({ args, kind }).toEqual({ args, kind: "cancelled" });
    }
  });
});
