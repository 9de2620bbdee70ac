import { describe, expect, it } from "vitest";
import { busyOutcome, crashOutcome, memoryOutcome, timeoutOutcome } from "./pool-outcomes.ts";

const context = { perWorkspace: 16, total: 64, maxWaitMs: 10_000, ownRunners: false };
const message = (result: ReturnType<typeof busyOutcome>) =>
  result.status === "error" && "message" in result ? result.message : "";

describe("the pool's outcomes", () => {
  it("say which cap made the server busy, and never blame the caller's code", () => {
    expect(message(busyOutcome("workspace", context))).toMatch(/busy with this workspace's runs.*16 runs/);
    expect(message(busyOutcome("server", context))).toMatch(/server is busy: 64 runs from all workspaces/);
    expect(message(busyOutcome("wait", context))).toMatch(/within 10 s \(every runner was serving other workspaces\)/);
    expect(message(busyOutcome("wait", { ...context, ownRunners: true }))).toMatch(
      /this workspace's runners were all taken/,
    );
    for (const cause of ["workspace", "server", "wait"] as const)
      expect(message(busyOutcome(cause, context))).not.toMatch(/loop|your code/i);
  });

  it("name the deadline and the memory limit", () => {
    expect(message(timeoutOutcome(300))).toMatch(/longer than 300 ms/);
    expect(message(memoryOutcome(128 * 1024 * 1024, 200 * 1024 * 1024, true))).toMatch(
      /more than 128 MB of memory \(200 MB when it was stopped, counting the other runs/,
    );
  });

  it("take V8's abort at the heap backstop for memory, and anything else for a crash", () => {
    expect(crashOutcome("SIGTRAP", 128 * 1024 * 1024)).toMatchObject({ kind: "memory" });
    expect(crashOutcome("SIGKILL", 128 * 1024 * 1024)).toMatchObject({
      kind: "user",
      error: { name: "RunnerCrashed", message: expect.stringMatching(/stopped unexpectedly \(SIGKILL\)/) },
    });
  });
});
