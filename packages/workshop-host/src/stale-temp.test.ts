import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OWNER_FILE, removeStaleTempFolders, TEMP_PREFIX } from "./stale-temp.ts";

const bases: string[] = [];
afterEach(() => {
  for (const base of bases.splice(0)) rmSync(base, { recursive: true, force: true });
});

/** A folder as a host would leave it, aged past the grace period unless `young`. */
function folder(base: string, name: string, owner: number | undefined, young = false): string {
  const dir = join(base, `${TEMP_PREFIX}${name}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "config.capnp"), "secret");
  if (owner !== undefined) writeFileSync(join(dir, OWNER_FILE), String(owner));
  if (!young) {
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(dir, old, old);
  }
  return dir;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("removeStaleTempFolders", () => {
  it("removes folders whose owner is dead and keeps those of live owners, young unsigned ones and other names", () => {
    const base = mkdtempSync(join(tmpdir(), "stale-test-"));
    bases.push(base);
    const dead = folder(base, "dead", deadPid());
    const justKilled = folder(base, "just-killed", deadPid(), true);
    const noOwner = folder(base, "no-owner", undefined);
    const alive = folder(base, "alive", process.pid);
    const young = join(base, `${TEMP_PREFIX}young`);
    mkdirSync(young);
    const other = join(base, "something-else");
    mkdirSync(other);
    expect(removeStaleTempFolders(base)).toBe(3);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(justKilled)).toBe(false);
    expect(existsSync(noOwner)).toBe(false);
    expect(existsSync(alive)).toBe(true);
    expect(existsSync(young)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });

  it("keeps a folder a running process works in, whatever its owner file says", async () => {
    const base = mkdtempSync(join(tmpdir(), "stale-test-"));
    bases.push(base);
    const busy = folder(base, "busy", deadPid());
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { cwd: busy, stdio: "ignore" });
    try {
      await new Promise((resolve) => child.once("spawn", resolve));
      expect(removeStaleTempFolders(base)).toBe(0);
      expect(existsSync(busy)).toBe(true);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
