import { createRequire } from "node:module";
import type { LaneJob, RunnerLaneApi } from "@gadgets/workshop-pool/protocol";
import { type MessageSocket, newBatchedRpcSession } from "@gadgets/workshop-shared/batched-websocket";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket as NodeWebSocket } from "ws";
import { type RunnerProcess, startRunner } from "./runner-process.ts";
import { bundleWorker } from "./worker-bundle.ts";

const require = createRequire(import.meta.url);
let runner: RunnerProcess;

beforeAll(async () => {
  runner = await startRunner(await bundleWorker(require.resolve("@gadgets/workshop-backend/runner-entry")), 256);
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
    expect((await fetch(`http://127.0.0.1:${port}/lane/guess`)).status).toBe(403);
  });

  it("takes jobs on its lane only for the workspace it was assigned, until its lane is closed", async () => {
    const socket = new NodeWebSocket(runner.laneUrl.replace("http:", "ws:"));
    await new Promise((resolve, reject) => {
      socket.once("open", resolve);
      socket.once("error", reject);
    });
    const lane = newBatchedRpcSession<RunnerLaneApi>(socket as unknown as MessageSocket);
    const job = (runId: string, workspaceId: string): LaneJob => ({
      runId,
      workspaceId,
      leaseId: "lease",
      grants: {},
      isolateKey: `${workspaceId}:echo`,
      gadget: { hash: "echo", mainModule: "g.js", modules: { "g.js": "export default { run: (p) => p };" } },
      payload: 1,
      limits: { cpuMs: 1000, timeoutMs: 1000 },
    });
    expect(await lane.execute(job("r0", "w1"), null)).toEqual({ status: "refused", reason: "closed" });
    await runner.assign("w1", 2);
    expect(await lane.execute(job("r1", "w2"), null)).toEqual({ status: "refused", reason: "not-assigned" });
    expect(await lane.execute({ ...job("r2", "w1"), gadget: { hash: "new", mainModule: "g.js" } }, null)).toEqual({
      status: "missing-code",
    });
    await runner.close();
    expect(await lane.execute(job("r3", "w1"), null)).toEqual({ status: "refused", reason: "closed" });
    lane[Symbol.dispose]();
  });
});
