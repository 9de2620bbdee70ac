/**
 * The `gadgets` command line against a started Workshop, run as a real child process: login, init,
 * run (streaming, errors, exit codes, --json), dev (re-run on save, cancel, Ctrl+C), publish, agents,
 * call and share, each in workspaces of their own.
 */

import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRpcClient } from "@gadgets/workshop-shared";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { type CliEnvironment, newCliUser, REPO_ROOT, runCli, startCli } from "./cli-process.ts";
import { workshopUrl } from "./helpers.ts";

// Each test spawns the real command line several times; on a loaded machine that takes a while.
vi.setConfig({ testTimeout: 120_000 });

/** Logs, then waits until another run of the same gadget puts "go" in its kv: only then can it end. */
const GATED_SOURCE = `export default {
  async run(payload: { release?: boolean; tag?: string }, env: GadgetEnv) {
    if (payload.release) {
      await env.kv.put("go", "yes");
      return "released";
    }
    await env.kv.delete("go");
    console.info("waiting for release", { tag: payload.tag, seen: new Map([["runs", 1]]) });
    while ((await env.kv.get("go")) !== "yes") await new Promise((resolve) => setTimeout(resolve, 20));
    console.warn("released");
    return { done: payload.tag ?? true };
  },
};
`;

function manifest(name: string, extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ name, entry: "index.ts", ...extra }, null, 2)}\n`;
}

async function loggedInUser(): Promise<CliEnvironment> {
  const user = newCliUser(workshopUrl());
  const login = await runCli(["login"], user);
  expect(login.code).toBe(0);
  return user;
}

function savedToken(user: CliEnvironment): string {
  const config = JSON.parse(readFileSync(join(user.configHome, "gadgets", "config.json"), "utf8"));
  return config.workspaces[workshopUrl()].token;
}

describe("gadgets login and whoami", () => {
  it("creates a workspace, saves its token readable by the user alone, and prints it only when asked", async () => {
    const user = newCliUser(workshopUrl());
    const login = await runCli(["login"], user);
    expect(login.code).toBe(0);
    const path = join(user.configHome, "gadgets", "config.json");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(user.configHome, "gadgets")).mode & 0o777).toBe(0o700);
    const token = savedToken(user);
    expect(token).toMatch(/^gw_/);
    expect(login.stdout + login.stderr).not.toContain(token);

    const again = await runCli(["login"], user);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("Already logged in");
    expect(savedToken(user)).toBe(token);

    const whoami = await runCli(["whoami"], user);
    expect(whoami.code).toBe(0);
    expect(whoami.stdout).toContain(`url: ${workshopUrl()}`);
    expect(whoami.stdout + whoami.stderr).not.toContain(token);
    expect((await runCli(["whoami", "--show-token"], user)).stdout).toContain(`token: ${token}`);

    // Another machine takes the same workspace with its token from stdin (kept out of argv).
    const other = newCliUser(workshopUrl());
    const taken = await runCli(["login", "--token", "-"], other, { stdin: `${token}\n` });
    expect(taken.code).toBe(0);
    expect(taken.stdout + taken.stderr).not.toContain(token);
    expect(savedToken(other)).toBe(token);
  });
});

describe("gadgets init", () => {
  it("writes a template whose types check in the user's own editor, and env types that follow the grants", async () => {
    const user = await loggedInUser();
    const init = await runCli(["init", "scorer", "--template", "async"], user);
    expect(init.code).toBe(0);
    const folder = join(user.cwd, "scorer");
    expect(JSON.parse(readFileSync(join(folder, "gadget.json"), "utf8"))).toMatchObject({
      name: "scorer",
      entry: "index.ts",
    });
    const tsc = (): { ok: boolean; output: string } => {
      try {
        execFileSync(process.execPath, [join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", folder], {
          encoding: "utf8",
        });
        return { ok: true, output: "" };
      } catch (error) {
        return { ok: false, output: String((error as { stdout?: string }).stdout) };
      }
    };
    expect(tsc()).toEqual({ ok: true, output: "" });

    // Using kv without the grant is a type error in the editor...
    const index = join(folder, "index.ts");
    writeFileSync(
      index,
      readFileSync(index, "utf8").replace("const results", 'await env.kv.put("k", "v");\n    const results'),
    );
    const refused = tsc();
    expect(refused.ok).toBe(false);
    expect(refused.output).toContain("Property 'kv' does not exist on type 'GadgetEnv'");

    // ...until gadget.json grants it: the next run rewrites the env types, and the same code checks.
    const manifestPath = join(folder, "gadget.json");
    const withGrant = { ...JSON.parse(readFileSync(manifestPath, "utf8")), grants: { kv: true } };
    writeFileSync(manifestPath, JSON.stringify(withGrant));
    const run = await runCli(["run", "scorer"], user);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      { word: "gadget", score: 5 },
      { word: "workshop", score: 7 },
      { word: "isolate", score: 7 },
    ]);
    // The example's short word shows the failure the template handles.
    expect(run.stderr).toContain('skipped: Error: "ok" is too short');
    expect(tsc()).toEqual({ ok: true, output: "" });

    const twice = await runCli(["init", "scorer"], user);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("already has gadget.json");
  });
});

describe("gadgets run", () => {
  let user: CliEnvironment;
  beforeAll(async () => {
    user = await loggedInUser();
    expect((await runCli(["init", "gate", "--template", "echo"], user)).code).toBe(0);
    writeFileSync(join(user.cwd, "gate", "gadget.json"), manifest("gate", { grants: { kv: true } }));
    writeFileSync(join(user.cwd, "gate", "index.ts"), GATED_SOURCE);
  });

  it("streams console lines while the run goes on, then prints the result and exits 0", async () => {
    const run = startCli(["run", "gate", "--input", '{"tag":"first"}', "--timeout", "20000"], user);
    const waiting = await run.waitFor("waiting for release", "stderr");
    // The run cannot end before this line reached us: it waits for a release sent only now.
    expect(run.child.exitCode).toBeNull();
    const release = await runCli(["run", "gate", "--input", '{"release":true}'], user);
    expect(release.code).toBe(0);
    expect(JSON.parse(release.stdout)).toBe("released");

    const exit = await run.exited;
    expect(exit.code).toBe(0);
    expect(waiting.at).toBeLessThan(exit.at);
    expect(JSON.parse(run.stdout())).toEqual({ done: "first" });
    const stderr = run.stderr();
    expect(stderr).toMatch(/info\s+waiting for release \{ tag: 'first', seen: Map\(1\) \{ 'runs' => 1 \} \}/);
    expect(stderr).toMatch(/warn\s+released/);
    expect(stderr).toContain("✓ ok in");
  });

  it("colours levels when asked", async () => {
    const colored = await runCli(["run", "gate", "--input", '{"release":true}', "--color"], user);
    expect(colored.code).toBe(0);
    const plain = await runCli(["run", "gate", "--input", '{"release":true}'], user);
    expect(colored.stderr).toContain("\u001b[32m✓ ok");
    expect(plain.stderr).not.toContain("\u001b[");
  });

  it("prints run events as JSON lines with --json", async () => {
    const run = startCli(["run", "gate", "--json", "--input", '{"tag":"json"}', "--timeout", "20000"], user);
    await run.waitFor('"waiting for release"', "stdout");
    expect((await runCli(["run", "gate", "--input", '{"release":true}'], user)).code).toBe(0);
    expect((await run.exited).code).toBe(0);
    const events = run
      .stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(["status", "log", "trace", "end"]));
    expect(events.at(-1)).toMatchObject({ type: "end", outcome: { status: "ok", result: { done: "json" } } });
    expect(events.find((event) => event.type === "log")).toMatchObject({
      level: "info",
      values: [{ t: "string", v: "waiting for release" }, { t: "object" }],
    });
  });

  it("points errors at the user's local files and exits 1 when the gadget throws", async () => {
    const folder = join(user.cwd, "thrower");
    expect((await runCli(["init", "thrower"], user)).code).toBe(0);
    writeFileSync(
      join(folder, "index.ts"),
      'import { check } from "./lib/check";\n\nexport default {\n  async run(payload: { n: number }) {\n    return check(payload.n);\n  },\n};\n',
    );
    execFileSync("mkdir", ["-p", join(folder, "lib")]);
    writeFileSync(
      join(folder, "lib", "check.ts"),
      `export function check(n: number): number {\n  if (n > 1) throw new RangeError(\`too big: \${n}\`);\n  return n;\n}\n`,
    );
    const run = await runCli(["run", "thrower", "--input", '{"n":5}'], user);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("RangeError: too big: 5");
    expect(run.stderr).toMatch(/at check \(thrower\/lib\/check\.ts:2:\d+\)/);
    expect(run.stderr).toMatch(/at Object\.run \(thrower\/index\.ts:5:\d+\)/);
    expect(run.stderr).toContain(`2 |   if (n > 1) throw new RangeError(\`too big: \${n}\`);`);
    expect(run.stderr).toMatch(/✗ user: RangeError: too big: 5 \(at thrower\/lib\/check\.ts:2:\d+\)/);
  });

  it("prints what the gadget logs, throws and returns as data: nothing in it steers the terminal", async () => {
    const folder = join(user.cwd, "steerer");
    expect((await runCli(["init", "steerer"], user)).code).toBe(0);
    // The clipboard (OSC 52), the window title, a line written over, a C1 CSI, a bidi override, hidden text.
    writeFileSync(
      join(folder, "index.ts"),
      `const attack = "\\u001b]52;c;cHduZWQ=\\u0007 \\u001b]0;pwned\\u0007 \\r\\u001b[1A✓ all checks passed \\u009b2K \\u202egnp.exe \\u001b[8mhidden";
export default {
  async run(payload: { fail?: boolean }) {
    console.log(attack);
    console.warn({ [attack]: attack }, Symbol(attack));
    console.table([{ [attack]: attack }]);
    if (payload.fail) throw new Error(attack);
    return { attack };
  },
};
`,
    );
    // Raw control characters, DEL, C1 and bidi overrides; with colours, the CLI's own colour codes aside.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
    const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the CLI's own colour codes are set aside.
    const colour = /\u001b\[\d{1,2}m/g;
    const steering = (text: string, colours = false) =>
      (colours ? text.replace(colour, "") : text).match(controls) ?? [];
    const attack =
      "\u001b]52;c;cHduZWQ=\u0007 \u001b]0;pwned\u0007 \r\u001b[1A✓ all checks passed \u009b2K \u202egnp.exe \u001b[8mhidden";

    const ok = await runCli(["run", "steerer"], user);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ attack });
    expect(ok.stderr).toContain("\\u000d\\u001b[1A✓ all checks passed");
    const thrown = await runCli(["run", "steerer", "--input", '{"fail":true}'], user);
    expect(thrown.code).toBe(1);
    expect(thrown.stderr).toMatch(/✗ user: Error: \\u001b\]52;c;/);
    // Not a TTY and NO_COLOR: not a single escape character at all.
    for (const run of [ok, thrown]) {
      expect(steering(run.stdout)).toEqual([]);
      expect(steering(run.stderr)).toEqual([]);
    }

    const json = await runCli(["run", "steerer", "--json"], user);
    expect(json.code).toBe(0);
    expect(steering(json.stdout)).toEqual([]);
    const events = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events.find((event) => event.type === "log").values).toEqual([{ t: "string", v: attack }]);
    expect(events.at(-1)).toMatchObject({ type: "end", outcome: { status: "ok", result: { attack } } });

    const coloured = await runCli(["run", "steerer", "--input", '{"fail":true}', "--color"], user);
    expect(coloured.stderr).toContain("\u001b[31m");
    expect(steering(coloured.stderr, true)).toEqual([]);
    expect(coloured.stderr).not.toContain("\u001b[8m");
  });

  it("exits 4 for a run past its --timeout and 7 for a run cancelled with Ctrl+C", async () => {
    const folder = join(user.cwd, "spinner");
    expect((await runCli(["init", "spinner"], user)).code).toBe(0);
    writeFileSync(
      join(folder, "index.ts"),
      'export default {\n  async run() {\n    console.log("spinning");\n    while (true) {}\n  },\n};\n',
    );
    const timedOut = await runCli(["run", "spinner", "--timeout", "300"], user);
    expect(timedOut.code).toBe(4);
    expect(timedOut.stderr).toMatch(/✗ timeout: /);

    const run = startCli(["run", "gate", "--input", '{"tag":"cancel"}', "--timeout", "20000"], user);
    await run.waitFor("waiting for release", "stderr");
    run.child.kill("SIGINT");
    const exit = await run.exited;
    expect(exit.code).toBe(7);
    expect(run.stderr()).toMatch(/✗ cancelled: /);
  });

  it("makes the run's /r/ link with --share", async () => {
    const run = await runCli(["run", "gate", "--input", '{"release":true}', "--share"], user);
    expect(run.code).toBe(0);
    const recordId = /\/r\/([A-Za-z0-9_-]{22})\b/.exec(run.stderr)?.[1];
    expect(recordId).toBeDefined();
    using client = createRpcClient({ url: workshopUrl() });
    const record = await client.api.openRecord(recordId as string).record();
    expect(record.outcome).toMatchObject({ status: "ok", result: "released" });
    expect(record.files.map((file) => file.path).sort()).toEqual(["gadget.json", "index.ts"]);
  });
});

describe("gadgets dev", () => {
  it("re-runs on save with the last input, cancelling the run still going, and ends cleanly on Ctrl+C", async () => {
    const user = await loggedInUser();
    expect((await runCli(["init", "watched"], user)).code).toBe(0);
    const folder = join(user.cwd, "watched");
    writeFileSync(join(folder, "gadget.json"), manifest("watched", { grants: { kv: true } }));
    writeFileSync(join(folder, "index.ts"), GATED_SOURCE);

    const dev = startCli(["dev", "watched", "--input", '{"tag":"kept"}', "--timeout", "20000"], user);
    await dev.waitFor("waiting for release", "stderr");
    expect(dev.child.exitCode).toBeNull();

    // Saving a new version while the first run still waits: that run is cancelled, the new one runs.
    writeFileSync(
      join(folder, "index.ts"),
      `export default {\n  async run(payload: { tag: string }) {\n    console.log("version two");\n    return \`v2 \${payload.tag}\`;\n  },\n};\n`,
    );
    await dev.waitFor("index.ts changed: running again", "stderr");
    await dev.waitFor("✗ cancelled", "stderr");
    await dev.waitFor('"v2 kept"', "stdout");
    expect(dev.stderr()).toMatch(/log\s+version two/);

    // A broken save is reported and the watch goes on.
    writeFileSync(join(folder, "gadget.json"), "{ not json");
    await dev.waitFor("gadget.json is not valid JSON", "stderr");
    writeFileSync(join(folder, "gadget.json"), manifest("watched"));
    await dev.waitFor(/"v2 kept"[\s\S]*"v2 kept"/, "stdout");

    dev.child.kill("SIGINT");
    const exit = await dev.exited;
    expect(exit.code).toBe(0);
    expect(dev.stderr()).toContain("Stopping");
  });
});

describe("gadgets publish, agents, call and share", () => {
  it("publishes name@N, lists it, calls it by name and id@N, and shares the folder and its last run", async () => {
    const user = await loggedInUser();
    expect((await runCli(["init", "echo"], user)).code).toBe(0);

    const first = await runCli(["publish", "echo"], user);
    expect(first.code).toBe(0);
    const [nameLine, idLine] = first.stdout.trim().split("\n");
    expect(nameLine).toBe("echo@1");
    const agentId = /^agent id: ([A-Za-z0-9_-]{22})$/.exec(idLine ?? "")?.[1] as string;
    expect(agentId).toBeDefined();

    writeFileSync(
      join(user.cwd, "echo", "index.ts"),
      `export default {\n  async run(payload: { input: string }) {\n    return \`Echo v2: \${payload.input}\`;\n  },\n};\n`,
    );
    const second = await runCli(["publish", "echo", "--json"], user);
    expect(JSON.parse(second.stdout)).toEqual({ name: "echo", version: 2, agentId });

    const agents = await runCli(["agents"], user);
    expect(agents.code).toBe(0);
    expect(agents.stdout).toMatch(new RegExp(`^echo@2\\s+${agentId}\\s+Returns its input\\.$`, "m"));
    expect(JSON.parse((await runCli(["agents", "--json"], user)).stdout)).toEqual([
      expect.objectContaining({ name: "echo", latestVersion: 2, agentId }),
    ]);

    const byName = await runCli(["call", "echo", "--input", '{"input":"hi"}'], user);
    expect(byName.code).toBe(0);
    expect(JSON.parse(byName.stdout)).toBe("Echo v2: hi");
    const pinned = await runCli(["call", `${agentId}@1`, "--input", '{"input":"hi"}'], user);
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(JSON.parse(pinned.stdout)).toBe("Echo: hi");
    expect(pinned.stderr).toMatch(/log\s+got \{ input: 'hi' \}/);

    // No run of these files yet: only the /s/ link.
    const before = await runCli(["share", "echo", "--json"], user);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toMatchObject({ record: null });
    expect((await runCli(["run", "echo", "--input", '{"input":"recorded"}'], user)).code).toBe(0);
    const shared = await runCli(["share", "echo"], user);
    expect(shared.code).toBe(0);
    const shareId = /^share: .*\/s\/([A-Za-z0-9_-]{22})$/m.exec(shared.stdout)?.[1] as string;
    const recordId = /^run record: .*\/r\/([A-Za-z0-9_-]{22})$/m.exec(shared.stdout)?.[1] as string;
    expect(shared.stdout).toContain(`${workshopUrl()}/s/${shareId}`);
    using client = createRpcClient({ url: workshopUrl() });
    const snapshot = await client.api.openShare(shareId).snapshot();
    expect(snapshot.payload).toEqual({ input: "hello" });
    expect(snapshot.files.find((file) => file.path === "index.ts")?.content).toContain("Echo v2");
    const record = await client.api.openRecord(recordId).record();
    expect(record.payload).toEqual({ input: "recorded" });
    expect(record.outcome).toMatchObject({ status: "ok", result: "Echo v2: recorded" });
  });

  it("keeps each workspace's drafts and agents to itself", async () => {
    const alice = await loggedInUser();
    const bob = await loggedInUser();
    for (const user of [alice, bob]) expect((await runCli(["init", "echo"], user)).code).toBe(0);
    writeFileSync(join(alice.cwd, "echo", "index.ts"), 'export default { async run() { return "alice"; } };\n');
    const published = await runCli(["publish", "echo", "--json"], alice);
    const { agentId } = JSON.parse(published.stdout);

    // Same gadget name in another workspace: its own draft, its own (empty) catalog.
    const bobRun = await runCli(["run", "echo", "--input", '{"input":"bob"}'], bob);
    expect(JSON.parse(bobRun.stdout)).toBe("Echo: bob");
    expect((await runCli(["agents", "--json"], bob)).stdout.trim()).toBe("[]");
    const stolen = await runCli(["call", agentId, "--input", "{}"], bob);
    expect(stolen.code).toBe(12);
    expect(stolen.stderr).toContain(`No agent "${agentId}" in this workspace`);
    expect(JSON.parse((await runCli(["call", "echo"], alice)).stdout)).toBe("alice");
  });
});

describe("gadgets test", () => {
  const ADDER = `export default {
  async run({ a, b }: { a: number; b: number }) {
    return { sum: a + b };
  },
};
`;
  const cases = (wrong: boolean) =>
    `${JSON.stringify({
      tests: [
        { name: "adds", input: { a: 1, b: 2 }, expect: { equals: { sum: 3 } } },
        { name: "adds again", input: { a: 2, b: 2 }, expect: { equals: { sum: wrong ? 5 : 4 } } },
      ],
    })}\n`;

  it("prints a line per case and exits 9 on a failure; publish is refused until the cases pass or are overridden", async () => {
    const user = await loggedInUser();
    const folder = join(user.cwd, "adder");
    execFileSync("mkdir", ["-p", folder]);
    writeFileSync(join(folder, "gadget.json"), manifest("adder"));
    writeFileSync(join(folder, "index.ts"), ADDER);
    writeFileSync(join(folder, "gadget.tests.json"), cases(true));

    const failing = await runCli(["test", "adder"], user);
    expect(failing.code).toBe(9);
    expect(failing.stdout).toContain("✓ adds");
    expect(failing.stdout).toContain("✗ adds again");
    expect(failing.stdout).toMatch(/expected 5\s+actual\s+4/);
    expect(failing.stdout).toContain("2 cases: 1 passed, 1 failed");

    const refused = await runCli(["publish", "adder"], user);
    expect(refused.code).toBe(9);
    expect(refused.stderr).toContain("--override-tests");
    const overridden = await runCli(["publish", "adder", "--override-tests", "--json"], user);
    expect(overridden.code).toBe(0);
    expect(JSON.parse(overridden.stdout)).toMatchObject({ name: "adder", version: 1 });

    writeFileSync(join(folder, "gadget.tests.json"), cases(false));
    const passing = await runCli(["test", "adder"], user);
    expect(passing.code).toBe(0);
    expect(passing.stdout).toContain("2 cases: 2 passed, 0 failed");
    expect((await runCli(["publish", "adder"], user)).code).toBe(0);
  });
});
