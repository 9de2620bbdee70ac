import { MAX_CONCURRENT_RUNS_PER_SESSION } from "@gadgets/workshop-shared/limits";
import { expect, it } from "vitest";
import type { Env } from "../env.ts";
import { executeRequest } from "../executors/testing/execute-requests.ts";
import type { HarnessReply } from "../isolate/harness/contract.ts";
import type { Overseer } from "../overseer.ts";
import { Connection } from "./connection.ts";
import { SharedRunSlots } from "./shared-run-slots.ts";

it("keeps a run slot taken while an ended run's isolate call is still in flight", async () => {
  const answers: Array<(reply: HarnessReply) => void> = [];
  const loader = {
    get: () => ({
      getEntrypoint: () => ({ run: () => new Promise<HarnessReply>((resolve) => answers.push(resolve)) }),
    }),
  };
  const connection = new Connection({ LOADER: loader } as unknown as Env, {} as Overseer, "client");
  const stop = new AbortController();
  const ended = connection.executor.execute(executeRequest(stop.signal));
  stop.abort({ kind: "timeout", message: "Too long." });
  await ended;

  for (let i = 1; i < MAX_CONCURRENT_RUNS_PER_SESSION; i++) expect(connection.acquireRunSlot(`r${i}`)).toBeDefined();
  expect(connection.acquireRunSlot("one-more")).toBeUndefined();
  expect(connection.busyMessage()).toContain("1 of them ended but their code is still settling");

  answers[0]?.({ status: "ok", json: "null" } as HarnessReply);
  await expect.poll(() => connection.acquireRunSlot("one-more")).toBeDefined();
});

it("refuses a run when the slots its connection shares with others are taken, and frees them as runs end", () => {
  const env = { LOADER: {} } as unknown as Env;
  const slots = new SharedRunSlots(MAX_CONCURRENT_RUNS_PER_SESSION + 1, "These runs share 5 slots, all taken.");
  const first = new Connection(env, {} as Overseer, "schedule", undefined, slots);
  const second = new Connection(env, {} as Overseer, "schedule", undefined, slots);
  for (let i = 0; i < MAX_CONCURRENT_RUNS_PER_SESSION; i++) expect(first.acquireRunSlot(`a${i}`)).toBeDefined();
  expect(second.acquireRunSlot("b0")).toBeDefined();
  expect(second.acquireRunSlot("b1")).toBeUndefined();
  expect(second.busyMessage("ws")).toBe("These runs share 5 slots, all taken.");

  first.releaseRunSlot("a0");
  first.close();
  expect(second.acquireRunSlot("b1")).toBeDefined();
  for (let i = 1; i < MAX_CONCURRENT_RUNS_PER_SESSION; i++) first.releaseRunSlot(`a${i}`);
  expect(slots.inFlight()).toBe(2);
});
