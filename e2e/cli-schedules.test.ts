/**
 * `gadgets schedules` as a real child process: lists the published agents' schedules, pauses and resumes
 * an agent's, and says so when the agent does not exist (exit 12).
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { type CliEnvironment, newCliUser, runCli } from "./cli-process.ts";
import { workshopUrl } from "./helpers.ts";

vi.setConfig({ testTimeout: 120_000 });

const EXIT = { ok: 0, usage: 2, notFound: 12 };

describe("gadgets schedules", () => {
  let user: CliEnvironment;
  beforeAll(async () => {
    user = newCliUser(workshopUrl());
    expect((await runCli(["login"], user)).code).toBe(EXIT.ok);
    expect((await runCli(["init", "digest"], user)).code).toBe(EXIT.ok);
    const manifestPath = join(user.cwd, "digest", "gadget.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown>;
    writeFileSync(
      manifestPath,
      JSON.stringify({ ...manifest, triggers: { schedules: [{ cron: "0 9 * * 1" }, { every: "6h" }] } }),
    );
    const published = await runCli(["publish", "digest"], user);
    expect(published.code, published.stderr).toBe(EXIT.ok);
  });

  it("lists the schedules, pauses and resumes them", async () => {
    const listed = await runCli(["schedules"], user);
    expect(listed.code, listed.stderr).toBe(EXIT.ok);
    const lines = listed.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^AGENT\s+SCHEDULE\s+NEXT\s+LAST\s+OUTCOME\s+SKIPPED$/);
    expect(lines[1]).toMatch(/^digest@1\s+cron 0 9 \* \* 1\s+\d{4}-\d\d-\d\d 09:00:00 UTC\s+-\s+-\s+0$/);
    expect(lines[2]).toMatch(/^digest@1\s+every 6h\s+\d{4}-/);

    const paused = await runCli(["schedules", "pause", "digest"], user);
    expect(paused.code, paused.stderr).toBe(EXIT.ok);
    expect(paused.stderr).toContain("Paused 2 schedules of digest.");
    expect(paused.stdout).toMatch(/^digest@1\s+every 6h\s+paused\s+/m);

    const json = JSON.parse((await runCli(["schedules", "list", "digest", "--json"], user)).stdout) as {
      paused: boolean;
    }[];
    expect(json.map((info) => info.paused)).toEqual([true, true]);

    const resumed = await runCli(["schedules", "resume", "digest"], user);
    expect(resumed.code, resumed.stderr).toBe(EXIT.ok);
    expect(resumed.stderr).toContain("Resumed 2 schedules of digest.");
    expect(resumed.stdout).not.toContain("paused");
  });

  it("refuses an unknown agent and a missing one", async () => {
    const unknown = await runCli(["schedules", "pause", "nobody"], user);
    expect(unknown.code).toBe(EXIT.notFound);
    expect(unknown.stderr).toContain('No published agent "nobody"');
    const missing = await runCli(["schedules", "resume"], user);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toContain("Name the agent");
  });
});
