/**
 * Workspace secrets against Workshops of their own (so their data folders and logs can be read at the
 * end), with the runner pool and in-process: a gadget granted a secret logs it, encodes it, returns it,
 * throws it, traces it, passes it to another agent and has a header grant fetch with another — and the
 * value, in any common encoding, is nowhere: not in an API answer, a share, the log, or any file of the
 * data folder. The header grant reaches only its own host (not after a redirect to another); shares,
 * embeds and record re-runs get no secrets; two workspaces' secrets stay apart; the limits hold; a
 * Workshop without a key refuses to set secrets.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import {
  createRpcClient,
  errorCode,
  MAX_SECRET_BYTES,
  MAX_SECRETS_PER_WORKSPACE,
  MIN_SECRET_BYTES,
  type RunEvent,
  type RunOutcome,
  type Session,
  traceToOtlp,
  type WorkshopClient,
} from "@gadgets/workshop-shared";
import type { RpcStub } from "capnweb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { gadget } from "./helpers.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const utf8 = (text: string) => Buffer.from(text, "utf8");

/** The texts a value may show up as: each one must be absent wherever output is kept. */
function encodings(value: string): string[] {
  const base64 = utf8(value).toString("base64");
  return [
    value,
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    base64,
    base64.replace(/=+$/, ""),
    utf8(value).toString("base64url"),
    utf8(value).toString("hex"),
    utf8(value).toString("hex").toUpperCase(),
  ];
}

/** Where any of the values shows in `text`, or undefined. */
function leak(text: string, values: readonly string[]): string | undefined {
  for (const value of values) for (const encoded of encodings(value)) if (text.includes(encoded)) return encoded;
  return undefined;
}

interface Seen {
  port: number;
  url: string;
  headers: IncomingHttpHeaders;
}

/** Two loopback servers: `a` echoes the Authorization header it got, or redirects to `b`; every request is kept. */
async function startTargets() {
  const seen: Seen[] = [];
  let bPort = 0;
  const listen = async (handle: (port: number) => Parameters<typeof createServer>[1]) => {
    let port = 0;
    const server = createServer((req, res) => handle(port)?.(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    port = (server.address() as AddressInfo).port;
    return { server, port };
  };
  const record = (port: number, req: { url?: string; headers: IncomingHttpHeaders }) =>
    seen.push({ port, url: req.url ?? "", headers: req.headers });
  const a = await listen((port) => (req, res) => {
    record(port, req);
    if (req.url?.startsWith("/redirect")) {
      res.writeHead(302, { location: `http://127.0.0.1:${bPort}/landed` });
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(`auth=${req.headers.authorization ?? "none"}`);
  });
  const b = await listen((port) => (req, res) => {
    record(port, req);
    res.end(`auth=${req.headers.authorization ?? "none"}`);
  });
  bPort = b.port;
  return {
    seen,
    a: a.port,
    b: b.port,
    close: () => Promise.all([a.server, b.server].map((s) => new Promise((done) => s.close(done)))),
  };
}

/** A gadget that does everything a gadget could to let its secrets out. */
function leakyGadget(a: number, b: number, name = "leaky") {
  const source = `
const hex = (text: string) => Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, "0")).join("");
const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
export default {
  async run(payload: { mode?: string }, env: any) {
    const token: string | undefined = env.secrets.API_TOKEN;
    const seen = { keys: Object.keys(env.secrets), frozen: Object.isFrozen(env.secrets), length: token?.length ?? 0 };
    if (token === undefined) {
      let header = "";
      try { header = await (await env.fetch("http://127.0.0.1:${a}/echo")).text(); } catch (error) { header = String(error); }
      return { ...seen, header };
    }
    console.log("token", token, { nested: token, [token]: 1 }, [b64(token)]);
    console.info(encodeURIComponent(token), JSON.stringify({ token }), hex(token), hex(token).toUpperCase());
    console.warn(new URLSearchParams({ token }).toString(), b64("user:" + token));
    // Its bytes, as an HMAC key is made: a typed array and a list of numbers.
    console.log("key bytes", new TextEncoder().encode(token), Array.from(new TextEncoder().encode(token)));
    console.error(new Error("failed with " + token));
    // Left to the runtime: an unhandled rejection and an error thrown from a timer.
    void Promise.reject(new Error("unhandled " + token));
    setTimeout(() => { throw new Error("late " + token); }, 0);
    const echoed = await (await env.fetch("http://127.0.0.1:${a}/echo?t=" + encodeURIComponent(token))).text();
    console.log("the server echoed", echoed, b64(echoed));
    await env.fetch("http://127.0.0.1:${a}/path/" + encodeURIComponent(token) + "/end");
    const redirected = await (await env.fetch("http://127.0.0.1:${a}/redirect")).text();
    const child = await env.catalog.get("child").run({ token, encoded: b64(token) });
    if (payload.mode === "throw") throw new TypeError("boom " + token + " " + b64(token));
    return { ...seen, token, encoded: b64(token), echoed, redirected, child, bytes: new TextEncoder().encode(token) };
  },
};
`;
  return gadget(source, {
    name,
    grants: {
      secrets: ["API_TOKEN", "NEVER_SET"],
      catalog: true,
      fetch: {
        hosts: [`127.0.0.1:${a}`, `127.0.0.1:${b}`],
        headers: { [`127.0.0.1:${a}`]: { Authorization: "Bearer {{HEADER_TOKEN}}" } },
      },
    },
  });
}

/** An agent granted no secrets that logs and returns what it was passed. */
const CHILD = gadget(
  `export default { async run(payload: unknown) { console.log("child got", payload); return payload; } };`,
  { name: "child" },
);

const randomPart = () => Math.random().toString(36).slice(2, 12);

async function collectRun(run: (listener: (event: RunEvent) => void) => Promise<RunOutcome>) {
  const events: RunEvent[] = [];
  const outcome = await run((event) => void events.push(event));
  return { outcome, events };
}

for (const mode of ["runner pool", "in-process"] as const) {
  describe(`secrets (${mode})`, () => {
    let root: string;
    let dataDir: string;
    let keyFile: string;
    let workshop: WorkshopServer;
    let targets: Awaited<ReturnType<typeof startTargets>>;
    let stopped = false;
    /** Every answer the Workshop gave (and shares read back): none may hold a value. */
    const answers: unknown[] = [];
    /** Every secret value this file set: none may be found in an answer, on disk or in the log. */
    const values: string[] = [];

    interface Workspace {
      credential: string;
      client: WorkshopClient;
      session: RpcStub<Session>;
      token: string;
      header: string;
    }
    /** The log of each server this file started and stopped. */
    const logs: string[] = [];
    const start = () =>
      startWorkshopServer({
        dataDir,
        secretsKeyFile: keyFile,
        allowLocalFetch: true,
        ...(mode === "in-process" ? { pool: false } : { pool: { size: 2 } }),
      });
    let one: Workspace;
    let two: Workspace;

    async function newWorkspace(): Promise<Workspace> {
      using boot = createRpcClient({ url: workshop.url });
      const { token: credential } = await boot.createWorkspace();
      const client = createRpcClient({ url: workshop.url, token: credential });
      const session = client.getSession();
      // Characters each encoding writes differently: JSON escapes, URL escapes, base64's + and /.
      const token = `tok_${randomPart()}/+ "q"&=\\~${randomPart()}`;
      const header = `hdr_${randomPart()}${randomPart()}`;
      values.push(token, header);
      answers.push(await session.setSecret("API_TOKEN", token));
      answers.push(await session.setSecret("HEADER_TOKEN", header));
      await session.publishDraft((await session.createDraft({ files: CHILD })).id);
      return { credential, client, session, token, header };
    }

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), "workshop-secrets-"));
      dataDir = join(root, "data");
      keyFile = join(root, "secrets.key");
      targets = await startTargets();
      workshop = await start();
      one = await newWorkspace();
      two = await newWorkspace();
    });

    afterAll(async () => {
      one?.client[Symbol.dispose]();
      two?.client[Symbol.dispose]();
      if (!stopped) await workshop?.stop();
      await targets?.close();
      rmSync(root, { recursive: true, force: true });
    });

    it("gives a draft's run exactly its granted secrets, injects the header only on its host, and redacts all output", async () => {
      const { session, token, header } = one;
      const draft = await session.createDraft({ files: leakyGadget(targets.a, targets.b) });
      targets.seen.length = 0;
      const { outcome, events } = await collectRun((listener) => session.runDraft(draft.id, {}, listener));
      answers.push(outcome, events);
      expect(outcome.status, JSON.stringify(outcome)).toBe("ok");
      if (outcome.status !== "ok") return;
      const result = outcome.result as Record<string, unknown>;
      // The gadget had the real value (its length, and the server got it), a granted name not set is absent.
      expect(result).toMatchObject({ keys: ["API_TOKEN"], frozen: true, length: token.length });
      expect(targets.seen.find((seen) => seen.url.startsWith("/echo"))?.url).toBe(
        `/echo?t=${encodeURIComponent(token)}`,
      );
      // Every trace of it is redacted: returned, encoded, echoed back by the server.
      expect(result.token).toBe("[secret API_TOKEN]");
      expect(result.encoded).toBe("[secret API_TOKEN]");
      expect(result.echoed).toBe("auth=Bearer [secret HEADER_TOKEN]");
      expect(result.child).toEqual({ token: "[secret API_TOKEN]", encoded: "[secret API_TOKEN]" });
      expect(result.bytes).toBe("[secret API_TOKEN]");
      const text = JSON.stringify(events);
      expect(text).not.toContain(Array.from(new TextEncoder().encode(token)).join(","));
      expect(text).toContain("[secret API_TOKEN]");
      expect(text).toContain("[secret HEADER_TOKEN]");
      expect(leak(text, [token, header])).toBeUndefined();

      // The header went to its host with the secret filled in, never to the other host after the redirect.
      const toA = targets.seen.filter((seen) => seen.port === targets.a);
      expect(toA.map((seen) => seen.headers.authorization)).toEqual([
        `Bearer ${header}`,
        `Bearer ${header}`,
        `Bearer ${header}`,
      ]);
      const toB = targets.seen.filter((seen) => seen.port === targets.b);
      expect(toB).toHaveLength(1);
      expect(toB[0]?.headers.authorization).toBeUndefined();
      expect(result.redirected).toBe("auth=none");
    });

    it("redacts a published agent's thrown error, its stack, records, traces, OTLP, shares of its runs and error reports", async () => {
      const { session, token, header } = one;
      const draft = await session.createDraft({ files: leakyGadget(targets.a, targets.b, "leaky-agent") });
      await session.publishDraft(draft.id);
      const ok = await session.getAgent("leaky-agent").runWithEvents({});
      const thrown = await collectRun((listener) =>
        session.getAgent("leaky-agent").runWithEvents({ mode: "throw" }, listener),
      );
      answers.push(ok, thrown);
      expect(ok.status).toBe("ok");
      expect(thrown.outcome).toMatchObject({ status: "error", kind: "user" });
      if (thrown.outcome.status !== "error") return;
      expect(thrown.outcome.message).toContain("boom [secret API_TOKEN] [secret API_TOKEN]");
      expect(thrown.outcome.error?.stack).toContain("[secret API_TOKEN]");

      const runs = await session.listRuns(100);
      answers.push(runs);
      expect(runs.length).toBeGreaterThanOrEqual(4);
      for (const summary of runs) {
        const record = await session.getRun(summary.runId);
        answers.push(record);
        if (record.trace) answers.push(traceToOtlp(record.trace, { runId: record.runId, name: record.name }));
        const { recordId } = await session.shareRun(summary.runId);
        using viewer = createRpcClient({ url: workshop.url });
        answers.push(await viewer.api.openRecord(recordId).record());
      }
      // The child's own records (it was passed the secret) are redacted too, though it was granted none.
      const childRecords = runs.filter((summary) => summary.name === "child");
      expect(childRecords.length).toBeGreaterThanOrEqual(2);
      const childRecord = await session.getRun(childRecords[0]?.runId ?? "");
      expect(JSON.stringify(childRecord.payload)).toContain("[secret API_TOKEN]");
      const errors = await session.listErrors();
      answers.push(errors);
      expect(JSON.stringify(errors)).toContain("[secret API_TOKEN]");
      expect(leak(JSON.stringify(answers), [token, header])).toBeUndefined();
    });

    it("lists secrets by name, size and time, with the agents that use them, and never a value", async () => {
      const { session, token, header } = one;
      const listed = await session.listSecrets();
      answers.push(listed);
      expect(listed).toEqual([
        { name: "API_TOKEN", bytes: utf8(token).byteLength, updatedAt: expect.any(Number), usedBy: ["leaky-agent"] },
        {
          name: "HEADER_TOKEN",
          bytes: utf8(header).byteLength,
          updatedAt: expect.any(Number),
          usedBy: ["leaky-agent"],
        },
      ]);
    });

    it("gives shares, embeds and record re-runs no secrets, and their header grants refuse", async () => {
      const { session } = one;
      const draft = await session.createDraft({ files: leakyGadget(targets.a, targets.b) });
      const { shareId } = await session.shareDraft(draft.id, {});
      const ran = await session.runDraft(draft.id, {});
      const { recordId } = await session.shareRun(ran.runId);
      targets.seen.length = 0;
      using visitor = createRpcClient({ url: workshop.url });
      const share = visitor.api.openShare(shareId);
      const shared = await share.run({});
      // An embed runs the share with the files it edited.
      const embedded = await share.run({}, null, leakyGadget(targets.a, targets.b));
      const again = await visitor.api.openRecord(recordId).runAgain();
      answers.push(shared, embedded, again);
      for (const outcome of [shared, embedded, again]) {
        expect(outcome.status, JSON.stringify(outcome)).toBe("ok");
        if (outcome.status !== "ok") continue;
        expect(outcome.result).toMatchObject({
          keys: [],
          length: 0,
          header: expect.stringContaining("shared and embedded runs have none"),
        });
      }
      expect(targets.seen).toEqual([]);
    });

    it("keeps two workspaces' secrets apart", async () => {
      const draft = await two.session.createDraft({ files: leakyGadget(targets.a, targets.b) });
      targets.seen.length = 0;
      const outcome = await two.session.runDraft(draft.id, {});
      answers.push(outcome);
      expect(outcome.status).toBe("ok");
      expect(targets.seen.find((seen) => seen.url.startsWith("/echo"))?.url).toBe(
        `/echo?t=${encodeURIComponent(two.token)}`,
      );
      expect(targets.seen.map((seen) => seen.headers.authorization)).toContain(`Bearer ${two.header}`);
      expect(leak(JSON.stringify(targets.seen), [one.token, one.header])).toBeUndefined();
      const listed = await two.session.listSecrets();
      answers.push(listed);
      // Its own, used by no agent of its own (leaky-agent is the other workspace's).
      expect(listed.map((secret) => [secret.name, secret.bytes, secret.usedBy])).toEqual([
        ["API_TOKEN", utf8(two.token).byteLength, []],
        ["HEADER_TOKEN", utf8(two.header).byteLength, []],
      ]);
    });

    it("refuses a header grant's fetch once its secret is deleted, naming the secret and not its value", async () => {
      const { session } = two;
      const draft = await session.createDraft({ files: leakyGadget(targets.a, targets.b) });
      expect(await session.deleteSecret("HEADER_TOKEN")).toBe(true);
      expect(await session.deleteSecret("HEADER_TOKEN")).toBe(false);
      expect(await session.deleteSecret("API_TOKEN")).toBe(true);
      targets.seen.length = 0;
      const outcome = await session.runDraft(draft.id, {});
      answers.push(outcome);
      expect(outcome).toMatchObject({
        status: "ok",
        result: {
          keys: [],
          header: expect.stringContaining("from the secret HEADER_TOKEN, which is not set in this workspace"),
        },
      });
      expect(targets.seen).toEqual([]);
      expect(await session.listSecrets()).toEqual([]);
    });

    it(`holds ${MAX_SECRETS_PER_WORKSPACE} secrets of up to ${MAX_SECRET_BYTES} bytes, and refuses more, longer, shorter or misnamed`, async () => {
      using boot = createRpcClient({ url: workshop.url });
      const { token } = await boot.createWorkspace();
      using client = createRpcClient({ url: workshop.url, token });
      const session = client.getSession();
      const codeOf = (call: Promise<unknown>) =>
        call.then(
          () => "set",
          (error) => errorCode(error) ?? String(error),
        );
      expect(await codeOf(session.setSecret("BIG", "b".repeat(MAX_SECRET_BYTES)))).toBe("set");
      expect(await codeOf(session.setSecret("BIGGER", "b".repeat(MAX_SECRET_BYTES + 1)))).toBe("INVALID_ARGUMENT");
      expect(await codeOf(session.setSecret("SHORT", "s".repeat(MIN_SECRET_BYTES)))).toBe("set");
      expect(await codeOf(session.setSecret("SHORTER", "s".repeat(MIN_SECRET_BYTES - 1)))).toBe("INVALID_ARGUMENT");
      expect(await codeOf(session.setSecret("lower_case", "valid-value-1"))).toBe("INVALID_ARGUMENT");
      // Half of a surrogate pair would not come back as it was set.
      expect(await codeOf(session.setSecret("LONE", "abc\ud800defghij"))).toBe("INVALID_ARGUMENT");
      for (let i = 2; i < MAX_SECRETS_PER_WORKSPACE; i++) await session.setSecret(`S_${i}`, `value-number-${i}`);
      expect(await session.listSecrets()).toHaveLength(MAX_SECRETS_PER_WORKSPACE);
      const refused = await session.setSecret("ONE_MORE", "value-over-limit").catch((error: unknown) => error);
      expect(errorCode(refused)).toBe("LIMIT_REACHED");
      expect(String(refused)).toContain(`already has ${MAX_SECRETS_PER_WORKSPACE} secrets`);
      // Replacing one is not a new one.
      expect((await session.setSecret("S_2", "replaced-value")).bytes).toBe("replaced-value".length);
    });

    it("keeps secrets across a restart with the same key file", async () => {
      one.client[Symbol.dispose]();
      two.client[Symbol.dispose]();
      logs.push(workshop.output());
      await workshop.stop();
      workshop = await start();
      one.client = createRpcClient({ url: workshop.url, token: one.credential });
      one.session = one.client.getSession();
      two.client = createRpcClient({ url: workshop.url, token: two.credential });
      const draft = await one.session.createDraft({ files: leakyGadget(targets.a, targets.b) });
      targets.seen.length = 0;
      const outcome = await one.session.runDraft(draft.id, {});
      answers.push(outcome);
      expect(outcome.status, JSON.stringify(outcome)).toBe("ok");
      expect(targets.seen.find((seen) => seen.url.startsWith("/echo"))?.url).toBe(
        `/echo?t=${encodeURIComponent(one.token)}`,
      );
    });

    it("leaves no value, and no key, in the data folder or the server's log", async () => {
      logs.push(workshop.output());
      const log = logs.join("\n");
      await workshop.stop();
      stopped = true;
      expect(leak(log, values), "log").toBeUndefined();
      expect(leak(JSON.stringify(answers), values), "answers").toBeUndefined();
      const key = readFileSync(keyFile, "utf8").trim();
      const files = filesUnder(dataDir);
      expect(files.some((file) => file.endsWith(".sqlite"))).toBe(true);
      let markers = 0;
      for (const file of files) {
        const content = readFileSync(file).toString("latin1");
        expect(leak(content, values), file).toBeUndefined();
        expect(content.includes(key), file).toBe(false);
        if (content.includes("[secret API_TOKEN]")) markers++;
      }
      // What was redacted is there, redacted: the records were written and read here, not left out.
      expect(markers).toBeGreaterThan(0);
      expect(log).toContain("[secret API_TOKEN]");
      expect(log.includes(key)).toBe(false);
    });
  });
}

describe("the secrets key", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "workshop-secrets-key-"));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const granted = gadget("export default { run: (_p: unknown, env: any) => Object.keys(env.secrets) };", {
    grants: { secrets: ["API_TOKEN"] },
  });

  it("without one, the Workshop refuses to set a secret, saying how to give it one, and runs granted gadgets without any", async () => {
    const workshop = await startWorkshopServer({ dataDir: join(root, "no-key"), secretsKeyFile: null, pool: false });
    try {
      using boot = createRpcClient({ url: workshop.url });
      const { token } = await boot.createWorkspace();
      using client = createRpcClient({ url: workshop.url, token });
      const session = client.getSession();
      await expect(session.setSecret("API_TOKEN", "a-valid-value")).rejects.toThrow(/no SECRETS_KEY/);
      expect(await session.listSecrets()).toEqual([]);
      const outcome = await session.runDraft((await session.createDraft({ files: granted })).id, {});
      expect(outcome).toMatchObject({ status: "ok", result: [] });
    } finally {
      await workshop.stop();
    }
  });

  it("with another key than the secrets were set with, a run granted one ends invalid, saying to set it again", async () => {
    const dataDir = join(root, "rekeyed");
    let workshop = await startWorkshopServer({ dataDir, secretsKeyFile: join(root, "first.key"), pool: false });
    let token: string;
    try {
      using boot = createRpcClient({ url: workshop.url });
      token = (await boot.createWorkspace()).token;
      using client = createRpcClient({ url: workshop.url, token });
      await client.getSession().setSecret("API_TOKEN", "sealed-with-the-first-key");
    } finally {
      await workshop.stop();
    }
    workshop = await startWorkshopServer({ dataDir, secretsKeyFile: join(root, "second.key"), pool: false });
    try {
      using client = createRpcClient({ url: workshop.url, token });
      const session = client.getSession();
      const outcome = await session.runDraft((await session.createDraft({ files: granted })).id, {});
      expect(outcome).toMatchObject({
        status: "error",
        kind: "invalid",
        message: expect.stringContaining("The secret API_TOKEN could not be opened"),
      });
      expect((await session.listSecrets()).map((secret) => secret.name)).toEqual(["API_TOKEN"]);
    } finally {
      await workshop.stop();
    }
  });

  it("is refused inside the data folder", async () => {
    const dataDir = join(root, "inside");
    await expect(startWorkshopServer({ dataDir, secretsKeyFile: join(dataDir, "key"), pool: false })).rejects.toThrow(
      /inside the data folder/,
    );
  });
});
