import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunnerProcess, startRunner } from "./runner-process.ts";
import { bundleWorker } from "./worker-bundle.ts";

const require = createRequire(import.meta.url);
let runner: RunnerProcess;

beforeAll(async () => {
  runner = await startRunner(await bundleWorker(require.resolve("@gadgets/workshop-backend/runner-worker")), 256);
}, 60_000);
afterAll(() => runner?.kill());

describe("a runner process", () => {
  it("answers its supervisor's session", async () => {
    expect(await runner.api.ping()).toBe("pong");
  });

  it("refuses anyone without its secret, and any browser", async () => {
    const port = runner.process.ports.http;
    expect((await fetch(`http://127.0.0.1:${port}/run`)).status).toBe(403);
    expect((await fetch(`http://127.0.0.1:${port}/run/guess`)).status).toBe(403);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/run/guess`);
    const opened = await new Promise<boolean>((resolve) => {
      socket.addEventListener("open", () => resolve(true));
      socket.addEventListener("error", () => resolve(false));
    });
    expect(opened).toBe(false);
  });
});
