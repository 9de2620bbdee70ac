import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ProcStats } from "./proc-stats.ts";

describe("ProcStats", () => {
  it("reads a process's CPU time and resident memory, again and again from the same files", () => {
    const stats = new ProcStats(process.pid);
    const before = stats.cpuMs() ?? Number.NaN;
    const spinUntil = Date.now() + 50;
    while (Date.now() < spinUntil);
    expect(stats.cpuMs()).toBeGreaterThan(before);
    const rss = stats.rssBytes() ?? 0;
    // VmRSS moves a little between two reads: the same figure within a few MB.
    expect(Math.abs(rss - process.memoryUsage().rss)).toBeLessThan(8 * 1024 * 1024);
    stats.close();
    expect(stats.cpuMs()).toBeUndefined();
  });

  it("answers undefined once the process is gone, or for one that never was", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 200)"]);
    const stats = new ProcStats(child.pid ?? 0);
    expect(stats.rssBytes()).toBeGreaterThan(0);
    expect(stats.cpuMs()).toBeGreaterThanOrEqual(0);
    await new Promise((done) => child.once("exit", done));
    // Reaped: the open files no longer answer.
    await new Promise((done) => setTimeout(done, 50));
    expect(stats.cpuMs()).toBeUndefined();
    expect(stats.rssBytes()).toBeUndefined();
    expect(new ProcStats(2 ** 30).cpuMs()).toBeUndefined();
  });
});
