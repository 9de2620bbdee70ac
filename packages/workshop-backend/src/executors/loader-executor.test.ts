import { describe, expect, it } from "vitest";
import type { HarnessReply } from "../isolate/harness/contract.ts";
import { LoaderExecutor } from "./loader-executor.ts";
import { executeRequest } from "./testing/execute-requests.ts";

/** A Worker Loader whose isolates answer each call when the test says so. */
function controlledLoader() {
  const calls: Array<{ resolve(reply: HarnessReply): void; reject(error: Error): void }> = [];
  const loader = {
    get: () => ({
      getEntrypoint: () => ({
        run: () =>
          new Promise<HarnessReply>((resolve, reject) => {
            calls.push({ resolve, reject });
          }),
      }),
    }),
  } as unknown as WorkerLoader;
  return { loader, calls };
}

const ok: HarnessReply = { status: "ok", json: "1" } as HarnessReply;

describe("LoaderExecutor", () => {
  it("answers an ended run at once and counts its isolate call until the call settles", async () => {
    const { loader, calls } = controlledLoader();
    const executor = new LoaderExecutor({ loader });
    const stop = new AbortController();
    const running = executor.execute(executeRequest(stop.signal));
    expect(executor.lingering()).toBe(0);
    stop.abort({ kind: "timeout", message: "The run took too long." });
    expect(await running).toMatchObject({ status: "error", kind: "timeout" });
    expect(executor.lingering()).toBe(1);
    calls[0]?.resolve(ok);
    await expect.poll(() => executor.lingering()).toBe(0);
  });

  it("counts a call that fails after its run ended the same way, and none that settled in time", async () => {
    const { loader, calls } = controlledLoader();
    const executor = new LoaderExecutor({ loader });
    const stop = new AbortController();
    const running = executor.execute(executeRequest(stop.signal));
    stop.abort({ kind: "cancelled", message: "The run was cancelled." });
    await running;
    calls[0]?.reject(new Error("The isolate went away."));
    await expect.poll(() => executor.lingering()).toBe(0);

    const settled = executor.execute(executeRequest(new AbortController().signal));
    calls[1]?.resolve(ok);
    expect(await settled).toMatchObject({ status: "ok", result: 1 });
    expect(executor.lingering()).toBe(0);
  });
});
