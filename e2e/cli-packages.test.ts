/**
 * npm packages from the command line, the real `gadgets` bin against the suite's Workshop and its test
 * registry: `gadgets add` declares and locks, `gadgets run` runs a folder with dependencies, writing
 * gadget.lock.json when it is missing or stale (as npm writes its lockfile), and the declarations land
 * under node_modules/ for the user's editor; `gadgets registry` points a workspace at a private
 * registry with its token read from stdin, never shown again.
 */

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { type CliEnvironment, newCliUser, runCli } from "./cli-process.ts";
import { workshopUrl } from "./helpers.ts";
import { startRegistry, type TestRegistry } from "./registry/registry-server.ts";

vi.setConfig({ testTimeout: 120_000 });

const EXIT = { ok: 0, usage: 2, invalid: 3 };

const SOURCE = `import { z } from "fx-zod";
import { a } from "fx-chain-a";

const Input = z.object({ name: z.string() });

export default {
  run(payload: unknown) {
    const { name } = Input.parse(payload);
    return \`\${name}: \${a()}\`;
  },
};
`;

interface Lock {
  dependencies: Record<string, string>;
  packages: Record<string, { name: string; version: string }>;
}

describe("gadgets and npm packages", () => {
  let user: CliEnvironment;
  let folder: string;
  const read = (path: string) => readFileSync(join(folder, path), "utf8");
  const lock = () => JSON.parse(read("gadget.lock.json")) as Lock;
  const manifest = () => JSON.parse(read("gadget.json")) as { dependencies?: Record<string, string> };

  beforeAll(async () => {
    // The suite's Workshop resolves against the suite's registry (started with it as its default).
    user = newCliUser(workshopUrl());
    const login = await runCli(["login"], user);
    expect(login.code, login.stderr).toBe(EXIT.ok);
    folder = join(user.cwd, "with-packages");
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, "gadget.json"),
      `${JSON.stringify({ name: "with-packages", entry: "index.ts", exampleInput: { name: "cli" } }, null, 2)}\n`,
    );
    writeFileSync(join(folder, "index.ts"), SOURCE);
  });

  it("gadgets add declares the newest version as ^x.y.z, locks it and writes its declarations", async () => {
    const added = await runCli(["add", "fx-zod", "fx-chain-a@1", "--dir", "with-packages"], user);
    expect(added.code, added.stderr).toBe(EXIT.ok);
    expect(added.stderr).toContain("Added fx-zod ^4.1.2, fx-chain-a ^1.0.0 to gadget.json.");
    expect(manifest().dependencies).toEqual({ "fx-zod": "^4.1.2", "fx-chain-a": "^1.0.0" });
    const locked = lock();
    expect(locked.dependencies).toEqual({ "fx-zod": "^4.1.2", "fx-chain-a": "^1.0.0" });
    expect(locked.packages["node_modules/fx-zod"]?.version).toBe("4.1.2");
    expect(locked.packages["node_modules/fx-chain-b"]?.version).toBe("1.0.0");
    expect(locked.packages["node_modules/fx-chain-c"]?.version).toBe("1.0.0");
    expect(read("node_modules/fx-zod/index.d.ts")).toContain("object<Shape");
  });

  it("gadgets run runs the folder on its locked tree and leaves a fresh lock as it is", async () => {
    const before = read("gadget.lock.json");
    const ran = await runCli(["run", "with-packages", "--json"], user);
    expect(ran.code, ran.stderr).toBe(EXIT.ok);
    expect(ran.stdout).toContain("cli: a>b>c@1");
    expect(ran.stderr).not.toContain("Locked");
    expect(read("gadget.lock.json")).toBe(before);
  });

  it("refreshes a stale lock when dependencies were edited by hand, and writes a missing one", async () => {
    writeFileSync(
      join(folder, "gadget.json"),
      JSON.stringify({ ...manifest(), dependencies: { ...manifest().dependencies, "fx-chain-c": "^2.0.0" } }),
    );
    const stale = await runCli(["run", "with-packages"], user);
    expect(stale.code, stale.stderr).toBe(EXIT.ok);
    expect(stale.stderr).toContain("Locked the dependencies in gadget.lock.json.");
    const refreshed = lock();
    expect(refreshed.dependencies["fx-chain-c"]).toBe("^2.0.0");
    expect(refreshed.packages["node_modules/fx-chain-c"]?.version).toBe("2.0.0");
    // fx-chain-b still wants ^1: the two versions live side by side.
    expect(
      Object.entries(refreshed.packages).some(
        ([path, entry]) => path.endsWith("/node_modules/fx-chain-c") && entry.version === "1.0.0",
      ),
    ).toBe(true);

    rmSync(join(folder, "gadget.lock.json"));
    const missing = await runCli(["run", "with-packages"], user);
    expect(missing.code, missing.stderr).toBe(EXIT.ok);
    expect(missing.stderr).toContain("Locked the dependencies in gadget.lock.json.");
    expect(lock().dependencies).toEqual(manifest().dependencies);
  });

  it("refuses an unknown package by name and leaves gadget.json as it was", async () => {
    const before = read("gadget.json");
    const unknown = await runCli(["add", "fx-no-such-package", "--dir", "with-packages"], user);
    expect(unknown.code).not.toBe(EXIT.ok);
    expect(unknown.stderr).toContain("fx-no-such-package");
    expect(read("gadget.json")).toBe(before);
    expect(existsSync(join(folder, "node_modules/fx-no-such-package"))).toBe(false);
  });
});

describe("gadgets registry", () => {
  let user: CliEnvironment;
  let secret: TestRegistry;
  const token = () => secret.token ?? "";

  beforeAll(async () => {
    // A workspace of its own: the tests above resolve against the suite's default registry.
    user = newCliUser(workshopUrl());
    const login = await runCli(["login"], user);
    expect(login.code, login.stderr).toBe(EXIT.ok);
    secret = await startRegistry({ private: true });
    // Only this registry has fx-private; reading it needs the token.
    await secret.publish({
      packageJson: { name: "fx-private", version: "3.0.0", type: "module", exports: "./index.js" },
      entries: [
        {
          type: "file",
          name: "package/package.json",
          content: '{"name":"fx-private","version":"3.0.0","type":"module","exports":"./index.js"}',
        },
        { type: "file", name: "package/index.js", content: 'export const where = "private";\n' },
      ],
    });
    mkdirSync(join(user.cwd, "private-dep"), { recursive: true });
    writeFileSync(
      join(user.cwd, "private-dep", "gadget.json"),
      JSON.stringify({ name: "private-dep", entry: "index.ts" }),
    );
    writeFileSync(
      join(user.cwd, "private-dep", "index.ts"),
      'import { where } from "fx-private";\nexport default { run: () => where };\n',
    );
  });

  afterAll(async () => {
    await secret?.stop();
  });

  it("shows the Workshop's default, sets a private registry with its token from stdin, and goes back", async () => {
    const shown = await runCli(["registry"], user);
    expect(shown.code, shown.stderr).toBe(EXIT.ok);
    expect(shown.stdout).toBe(`url: ${inject("registry").url}\nsetting: the Workshop's default\ntoken: none\n`);

    const set = await runCli(["registry", "set", secret.url, "--token-stdin"], user, { stdin: `${token()}\n` });
    expect(set.code, set.stderr).toBe(EXIT.ok);
    expect(set.stdout).toBe(`url: ${secret.url}\nsetting: this workspace's own\ntoken: kept (never shown)\n`);
    expect(set.stderr).toContain(`Dependencies now resolve against ${secret.url} with its token`);

    // The token reaches the registry: a package only the private registry has resolves, locks and runs.
    const added = await runCli(["add", "fx-private", "--dir", "private-dep"], user);
    expect(added.code, added.stderr).toBe(EXIT.ok);
    expect(added.stderr).toContain("Added fx-private ^3.0.0 to gadget.json.");
    const ran = await runCli(["run", "private-dep", "--json"], user);
    expect(ran.code, ran.stderr).toBe(EXIT.ok);
    expect(ran.stdout).toContain('"private"');

    const again = await runCli(["registry", "--json"], user);
    expect(JSON.parse(again.stdout)).toEqual({ url: secret.url, isDefault: false, hasToken: true });
    for (const output of [set, added, ran, again]) expect(`${output.stdout}${output.stderr}`).not.toContain(token());

    const reset = await runCli(["registry", "reset"], user);
    expect(reset.code, reset.stderr).toBe(EXIT.ok);
    expect(reset.stdout).toContain("setting: the Workshop's default");
  });

  it("refuses a token as an argument, an empty stdin and a URL the Workshop does not allow, changing nothing", async () => {
    const asArgument = await runCli(["registry", "set", secret.url, token()], user);
    expect(asArgument.code).toBe(EXIT.usage);
    expect(asArgument.stderr).toContain("never as an argument");
    expect(asArgument.stderr).not.toContain(token());

    const empty = await runCli(["registry", "set", secret.url, "--token-stdin"], user, { stdin: "" });
    expect(empty.code).toBe(EXIT.usage);
    expect(empty.stderr).toContain("stdin was empty");

    const plainHttp = await runCli(["registry", "set", "http://registry.example.com/"], user);
    expect(plainHttp.code).toBe(EXIT.usage);
    expect(plainHttp.stderr).toContain("https");

    const unchanged = await runCli(["registry", "--json"], user);
    expect(JSON.parse(unchanged.stdout)).toMatchObject({ isDefault: true, hasToken: false });
  });
});
