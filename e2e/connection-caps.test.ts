/**
 * What one connection can make the Worker hold: unreleased call results, unread messages and open
 * links are counted and capped, over a raw socket (no client library to be polite), and the Worker's
 * memory stays bounded under the floods that used to grow it without end.
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import {
  createRpcClient,
  MAX_OPEN_LINKS_PER_CONNECTION,
  MAX_RPC_HELD_PER_CONNECTION,
  MAX_RPC_QUEUED_MESSAGES_PER_CONNECTION,
} from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gadgetFiles, newWorkspace } from "./abuse-helpers.ts";

let server: WorkshopServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "workshop-connection-caps-"));
  // Isolates in the Worker's own process, as on Cloudflare: its memory is what the floods aim at.
  server = await startWorkshopServer({ dataDir, pool: false });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const workerRssMb = () =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${server.workerPid}/status`, "utf8"))?.[1]) / 1024;

/** A raw Cap'n Web peer: hand-made frames out, every message and the close seen. */
async function rawPeer() {
  const socket = new WebSocket(`${server.url.replace("http", "ws")}/api`);
  const received: string[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.addEventListener("close", (event) => resolve({ code: event.code, reason: event.reason })),
  );
  socket.addEventListener("message", (event) => received.push(...String(event.data).split("\n")));
  await new Promise((resolve) => socket.addEventListener("open", resolve, { once: true }));
  const waitFor = async (prefix: string) => {
    await expect.poll(() => received.find((message) => message.startsWith(prefix)), { timeout: 20_000 }).toBeDefined();
    return received.find((message) => message.startsWith(prefix)) as string;
  };
  return { socket, received, closed, waitFor, send: (messages: string[]) => socket.send(messages.join("\n")) };
}

const pings = (n: number) => Array.from({ length: n }, () => '["push",["pipeline",0,["ping"],[]]]');

/** Main import and export are held from the start. */
const HELD_AT_START = 2;

describe("unreleased call results", () => {
  it(`holds ${MAX_RPC_HELD_PER_CONNECTION} of them and answers, then refuses one more and closes the connection, saying why`, async () => {
    const full = await rawPeer();
    const n = MAX_RPC_HELD_PER_CONNECTION - HELD_AT_START;
    full.send(pings(n));
    full.send([`["pull",${n}]`]);
    expect(await full.waitFor(`["resolve",${n},`)).toContain("pong");
    expect(full.socket.readyState).toBe(WebSocket.OPEN);
    // Releasing one makes room for one more.
    full.send(['["release",1,1]', ...pings(1), `["pull",${n + 1}]`]);
    expect(await full.waitFor(`["resolve",${n + 1},`)).toContain("pong");
    full.socket.close();

    const past = await rawPeer();
    past.send(pings(n + 1));
    expect(await past.waitFor('["abort"')).toContain(`would pass the limit of ${MAX_RPC_HELD_PER_CONNECTION}`);
    expect((await past.closed).code).toBe(3000);
  });

  it("closes a connection that floods pings without releasing them, keeps the Worker's memory bounded, and serves another client meanwhile", async () => {
    const before = workerRssMb();
    const peers = await Promise.all(Array.from({ length: 5 }, () => rawPeer()));
    // 100,000 pushes each used to add ~124 MB to the Worker; now each connection ends at the cap.
    for (const peer of peers) for (let frame = 0; frame < 10; frame++) peer.send(pings(10_000));
    for (const peer of peers) expect((await peer.closed).code).toBe(3000);
    using other = createRpcClient({ url: server.url });
    expect(await other.api.ping()).toBe("pong");
    expect(workerRssMb() - before).toBeLessThan(100);
  });
});

describe("unread messages", () => {
  it(`reads a frame of ${MAX_RPC_QUEUED_MESSAGES_PER_CONNECTION + 1} messages and refuses one of a message more`, async () => {
    // The session is waiting when a frame comes: its first message is read at once, the rest queue.
    const pullsOfMain = (n: number) => Array.from({ length: n }, () => '["pull",0]');
    const full = await rawPeer();
    full.send(pullsOfMain(MAX_RPC_QUEUED_MESSAGES_PER_CONNECTION + 1));
    full.send(pings(1));
    full.send(['["pull",1]']);
    expect(await full.waitFor('["resolve",1,')).toContain("pong");
    full.socket.close();

    const past = await rawPeer();
    past.send(pullsOfMain(MAX_RPC_QUEUED_MESSAGES_PER_CONNECTION + 2));
    expect(await past.waitFor('["abort"')).toContain(
      `more than ${MAX_RPC_QUEUED_MESSAGES_PER_CONNECTION} messages the server had not read yet`,
    );
    expect((await past.closed).code).toBe(3000);
  });
});

describe("public links", () => {
  let recordId: string;

  beforeAll(async () => {
    using owner = await newWorkspace(server.url);
    const session = owner.getSession();
    // A large public record: its result is 900 KB of text.
    const source = 'export default { run() { return "x".repeat(900_000); } };';
    const draft = await session.createDraft({ files: gadgetFiles("big", source) });
    const outcome = await session.runDraft(draft.id, {});
    expect(outcome.status).toBe("ok");
    ({ recordId } = await session.shareRun(outcome.runId));
  }, 60_000);

  it(`holds ${MAX_OPEN_LINKS_PER_CONNECTION} open links on a connection, refuses one more, and takes one again after a dispose`, async () => {
    using client = createRpcClient({ url: server.url });
    const links = [];
    for (let i = 0; i < MAX_OPEN_LINKS_PER_CONNECTION; i++) links.push(await client.api.openRecord(recordId));
    expect((await client.api.connectionStats()).links).toBe(MAX_OPEN_LINKS_PER_CONNECTION);
    await expect(client.api.openRecord(recordId)).rejects.toThrow(
      `This connection holds ${MAX_OPEN_LINKS_PER_CONNECTION} open share and record links, the limit.`,
    );
    links.pop()?.[Symbol.dispose]();
    await expect.poll(async () => (await client.api.connectionStats()).links).toBe(MAX_OPEN_LINKS_PER_CONNECTION - 1);
    using again = await client.api.openRecord(recordId);
    expect((await again.record()).recordId).toBe(recordId);
  });

  it("holds a record once however many times it is opened: pipelined opens of a large record leave the Worker's memory bounded", async () => {
    const before = workerRssMb();
    const peers = await Promise.all(Array.from({ length: 4 }, () => rawPeer()));
    // Each frame: 40 opens of the record, pipelined, never pulled (each used to keep its own parse).
    const opens = Array.from(
      { length: 40 },
      () => `["push",["pipeline",0,["openRecord"],[${JSON.stringify(recordId)}]]]`,
    );
    for (const peer of peers) for (let frame = 0; frame < 3; frame++) peer.send(opens);
    // Past the open-links cap the opens are refused: the last one says so.
    for (const peer of peers) {
      peer.send(['["pull",120]']);
      expect(await peer.waitFor('["reject",120,')).toContain("open share and record links, the limit");
    }
    using other = createRpcClient({ url: server.url });
    expect(await other.api.ping()).toBe("pong");
    expect(workerRssMb() - before).toBeLessThan(100);
  });
});
