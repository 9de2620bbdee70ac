/**
 * npm packages from the command line, the real `gadgets` bin against the suite's Workshop and its test
 * registry: `gadgets add` declares and locks, `gadgets run` runs a folder with dependencies, writing
 * gadget.lock.json when it is missing or stale (as npm writes its lockfile), and the declarations land
 * under node_modules/ for the user's editor.
 */

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { type CliEnvironment, newCliUser, runCli } from "./cli-process.ts";
import { workshopUrl } from "./helpers.ts";

vi.setConfig({ testTimeout: 120_000 });

const EXIT = { ok: 0, invalid: 3 };

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
