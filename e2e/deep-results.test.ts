import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient, type RunOutcome, type WorkshopClient } from "@gadgets/workshop-shared";
import { MAX_JSON_DEPTH } from "@gadgets/workshop-shared/limits";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_SOURCE, gadget } from "./helpers.ts";

/**
 * A result nested deeper than the payload rule is the gadget's mistake, and ends as `invalid` where it
 * is made; it must never look like a crash of the runner that ran it, nor stop the runs beside it.
 */

const NESTED = `export default {
  async run({ depth }: { depth: number }) {
    let value: unknown = 0;
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  },
};`;

/** Still running when its sibling's result is refused: were the runner stopped, it would be cancelled. */
const SIBLING = `export default {
  async run() {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return "sibling ok";
  },
};`;

let server: WorkshopServer;
let dataDir: string;
const clients: WorkshopClient[] = [];

async function workspace() {
  const boot = createRpcClient({ url: server.url });
  const { token, workspaceId } = await boot.createWorkspace();
  boot[Symbol.dispose]();
  const client = createRpcClient({ url: server.url, token });
  clients.push(client);
  const session = client.getSession();
  const draft = async (source: string) => (await session.createDraft({ files: gadget(source) })).id;
  return {
    session,
    workspaceId,
    nested: await draft(NESTED),
    sibling: await draft(SIBLING),
    echo: await draft(ECHO_SOURCE),
  };
}

function nested(depth: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

const kindOf = (outcome: RunOutcome) => (outcome.status === "ok" ? "ok" : outcome.kind);
const runnersOf = (workspaceId: string) =>
  server
    .poolRunners()
    .filter((runner) => runner.workspaceId === workspaceId)
    .map((runner) => runner.pid);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "workshop-deep-"));
  // One runner per workspace, so the sibling always shares the deep run's runner.
  server = await startWorkshopServer({ dataDir, pool: { size: 3, runsPerRunner: 4, runnersPerWorkspace: 1 } });
});
afterAll(async () => {
  for (const client of clients) client[Symbol.dispose]();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the 300-deep result and the sibling at once; then the workspace's next run, on the same runner. */
async function deepBesideSibling(w: Awaited<ReturnType<typeof workspace>>) {
  const restarts = server.poolStats()?.restarts;
  const [deep, sibling] = await Promise.all([
    w.session.runDraft(w.nested, { depth: 300 }),
    w.session.runDraft(w.sibling, {}),
  ]);
  expect(kindOf(deep), JSON.stringify(deep)).toBe("invalid");
  expect(deep.status === "error" && deep.message).toContain(
    `run() returned JSON nested 300 levels deep; the limit is ${MAX_JSON_DEPTH} levels, as for payloads.`,
  );
  expect(sibling.status === "ok" ? sibling.result : sibling).toBe("sibling ok");
  const runners = runnersOf(w.workspaceId);
  expect(runners).toHaveLength(1);
  const next = await w.session.runDraft(w.echo, { input: "after" });
  expect(next.status === "ok" ? next.result : next).toBe("Echo: after");
  expect(runnersOf(w.workspaceId)).toEqual(runners);
  expect(server.poolStats()?.restarts).toBe(restarts);
}

describe("a result nested deeper than the payload rule", () => {
  it(`passes ${MAX_JSON_DEPTH} levels through every link, whole`, async () => {
    const w = await workspace();
    const outcome = await w.session.runDraft(w.nested, { depth: MAX_JSON_DEPTH });
    expect(outcome.status === "ok" ? outcome.result : outcome).toEqual(nested(MAX_JSON_DEPTH));
    const deeper = await w.session.runDraft(w.nested, { depth: MAX_JSON_DEPTH + 1 });
    expect(kindOf(deeper)).toBe("invalid");
  });

  it("ends invalid on a placed run, while the run beside it ends ok and the runner serves on", async () => {
    await deepBesideSibling(await workspace());
  });

  it("ends invalid on a warm lane too, the same way", async () => {
    const w = await workspace();
    const before = server.poolStats()?.adoptedRuns ?? 0;
    for (let i = 0; i < 50 && (server.poolStats()?.adoptedRuns ?? 0) === before; i++) {
      expect(kindOf(await w.session.runDraft(w.echo, { input: `warm ${i}` }))).toBe("ok");
      await new Promise((done) => setTimeout(done, 10));
    }
    // Each draft's code once, so the lane's runner has it and the runs below go straight there.
    await w.session.runDraft(w.nested, { depth: 1 });
    await w.session.runDraft(w.sibling, {});
    const direct = server.poolStats()?.adoptedRuns ?? 0;
    expect(direct).toBeGreaterThan(before);
    await deepBesideSibling(w);
    expect(server.poolStats()?.adoptedRuns).toBeGreaterThan(direct);
  });
});
