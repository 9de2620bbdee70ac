import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient, type RunEvent, type RunRecord, type WorkshopClient } from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventCollector, gadget } from "./helpers.ts";

/**
 * The harness writes each console line of a local run as JSON on its runner's stdout, in the gadget's
 * own realm. A gadget that changes `Array.prototype.toJSON` must change nothing about those lines: not
 * its own record's dropped count, and not the console of another run of the same code beside it.
 */

const SOURCE = `export default {
  async run({ role }: { role: "forger" | "victim" }) {
    const sleep = () => new Promise((resolve) => setTimeout(resolve, 10));
    const proto = Array.prototype as unknown as { toJSON?: () => unknown };
    if (role === "forger") {
      // Every event line is an array [runId, kind, data]: each becomes a huge dropped tally.
      proto.toJSON = function (this: unknown[]) {
        return typeof this[0] === "string" && this.length === 3 ? [this[0], "dropped", [999999999]] : this;
      };
      console.log("forger", [1, 2]);
      for (let i = 0; i < 100 && !(globalThis as { victimLogged?: boolean }).victimLogged; i++) await sleep();
      return "forged";
    }
    for (let i = 0; i < 100 && !proto.toJSON; i++) await sleep();
    const shared = Boolean(proto.toJSON);
    console.log("victim", { mine: [true] });
    (globalThis as { victimLogged?: boolean }).victimLogged = true;
    return { shared };
  },
};`;

let server: WorkshopServer;
let dataDir: string;
let client: WorkshopClient;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "workshop-lines-"));
  // One runner for the workspace: both runs share its isolate, and so its prototypes.
  server = await startWorkshopServer({ dataDir, pool: { size: 2, runsPerRunner: 4, runnersPerWorkspace: 1 } });
  const boot = createRpcClient({ url: server.url });
  const { token } = await boot.createWorkspace();
  boot[Symbol.dispose]();
  client = createRpcClient({ url: server.url, token });
});
afterAll(async () => {
  client?.[Symbol.dispose]();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const texts = (events: RunEvent[]) =>
  events.flatMap((event) => (event.type === "log" ? [JSON.stringify(event.values)] : []));

async function recordOf(session: ReturnType<WorkshopClient["getSession"]>, runId: string): Promise<RunRecord> {
  for (let tries = 0; tries < 50; tries++) {
    const record = await session.getRun(runId).catch(() => undefined);
    if (record) return record;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`no record of ${runId}`);
}

describe("event lines under a gadget's Array.prototype.toJSON", () => {
  it("keep a run's console and dropped count truthful, its own and a concurrent run's of the same code", async () => {
    const session = client.getSession();
    const draft = await session.createDraft({ files: gadget(SOURCE) });
    const forgerEvents = eventCollector();
    const victimEvents = eventCollector();
    const [forger, victim] = await Promise.all([
      session.runDraft(draft.id, { role: "forger" }, forgerEvents.listener),
      session.runDraft(draft.id, { role: "victim" }, victimEvents.listener),
    ]);
    expect(forger.status === "ok" ? forger.result : forger).toBe("forged");
    // Only a test of anything if the victim ran beside the forger, in its realm.
    expect(victim.status === "ok" ? victim.result : victim).toEqual({ shared: true });

    const forgerLine = JSON.stringify([
      { t: "string", v: "forger" },
      {
        t: "array",
        items: [
          { t: "number", v: 1 },
          { t: "number", v: 2 },
        ],
        length: 2,
      },
    ]);
    expect(texts(forgerEvents.events.map((entry) => entry.event))).toEqual([forgerLine]);
    const victimLines = texts(victimEvents.events.map((entry) => entry.event));
    expect(victimLines).toHaveLength(1);
    expect(victimLines[0]).toContain('"v":"victim"');
    for (const collected of [forgerEvents, victimEvents]) expect(collected.ofType("dropped")).toEqual([]);

    for (const [outcome, lines] of [
      [forger, [forgerLine]],
      [victim, victimLines],
    ] as const) {
      const record = await recordOf(session, outcome.runId);
      expect(record.droppedEvents).toBe(0);
      expect(texts(record.events)).toEqual(lines);
    }
  });
});
