import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import {
  createRpcClient,
  MAX_SPANS_PER_RUN,
  type OtlpTrace,
  type RunEvent,
  type SharedRunRecord,
  traceToOtlp,
  type WorkshopClient,
} from "@gadgets/workshop-shared";
import { gadgetFiles, newWorkspace } from "./abuse-helpers.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Checks the OTLP/JSON shape (opentelemetry-proto's JSON mapping) field by field. */
function expectValidOtlp(otlp: OtlpTrace, spanCount: number): void {
  expect(Object.keys(otlp)).toEqual(["resourceSpans"]);
  expect(otlp.resourceSpans).toHaveLength(1);
  const [resource] = otlp.resourceSpans;
  const validAttribute = (attribute: { key: string; value: Record<string, unknown> }) => {
    expect(typeof attribute.key).toBe("string");
    const kinds = Object.keys(attribute.value);
    expect(kinds).toHaveLength(1);
    expect(["stringValue", "intValue", "doubleValue", "boolValue"]).toContain(kinds[0]);
    if (kinds[0] === "intValue") expect(attribute.value.intValue).toMatch(/^-?\d+$/);
  };
  resource?.resource.attributes.forEach(validAttribute);
  expect(resource?.resource.attributes.find((a) => a.key === "service.name")?.value).toEqual({
    stringValue: "gadget-workshop",
  });
  const spans = resource?.scopeSpans[0]?.spans ?? [];
  expect(spans).toHaveLength(spanCount);
  const ids = new Set(spans.map((span) => span.spanId));
  expect(ids.size).toBe(spans.length);
  for (const span of spans) {
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.traceId).not.toMatch(/^0+$/);
    expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
    if (span.parentSpanId !== undefined) expect(ids.has(span.parentSpanId)).toBe(true);
    expect(span.startTimeUnixNano).toMatch(/^\d+$/);
    expect(span.endTimeUnixNano).toMatch(/^\d+$/);
    expect(BigInt(span.endTimeUnixNano) >= BigInt(span.startTimeUnixNano)).toBe(true);
    expect(span.kind).toBe(1);
    expect([1, 2]).toContain(span.status.code);
    span.attributes.forEach(validAttribute);
  }
  expect(spans.filter((span) => span.parentSpanId === undefined)).toHaveLength(1);
}

describe("traces", () => {
  let workshop: WorkshopServer;
  let dataDir: string;
  let target: Server;
  let host: string;
  const seen: IncomingMessage[] = [];
  let client: WorkshopClient;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "workshop-traces-"));
    // The loopback server below is reachable by granted fetches only with local fetch allowed.
    workshop = await startWorkshopServer({ dataDir, allowLocalFetch: true, pool: { size: 2 } });
    target = createServer((req, res) => {
      seen.push(req);
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("twelve bytes");
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", () => resolve()));
    host = `127.0.0.1:${(target.address() as AddressInfo).port}`;
    client = await newWorkspace(workshop.url);
  });
  afterAll(async () => {
    client?.[Symbol.dispose]();
    target?.close();
    await workshop?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("records kv, fetch and catalog calls and the called agent's own spans, in order, without secrets", async () => {
    const session = client.getSession();
    const helperDraft = await session.createDraft({
      files: gadgetFiles(
        "helper",
        `export default {
  async run(input: { x: number }, env: any) {
    console.log("helper got", input.x);
    await env.kv.put("helper-key", "helper-secret-value");
    return input.x * 2;
  },
};`,
        { kv: true },
      ),
    });
    await session.publishDraft(helperDraft.id);
    const main = await session.createDraft({
      files: gadgetFiles(
        "main",
        `export default {
  async run(_: unknown, env: any) {
    await env.kv.put("k", "s3cret-value");
    const v = await env.kv.get("k");
    const response = await env.fetch("http://${host}/data?token=abc123", { headers: { authorization: "Bearer hunter2" } });
    const text = await response.text();
    const doubled = await env.catalog.get("helper").run({ x: 21 });
    console.log("main done");
    return { v, text, doubled };
  },
};`,
        { kv: true, catalog: true, fetch: { hosts: [host] } },
      ),
    });
    const events: RunEvent[] = [];
    const outcome = await session.runDraft(main.id, null, (event) => void events.push(event), { timeoutMs: 10_000 });
    expect(outcome).toMatchObject({ status: "ok", result: { v: "s3cret-value", text: "twelve bytes", doubled: 42 } });
    // The header did reach the server: the trace leaves it out, the request did not.
    expect(seen.at(-1)?.headers.authorization).toBe("Bearer hunter2");

    const record = await session.getRun(outcome.runId);
    const trace = record.trace;
    if (!trace) throw new Error("the record has no trace");
    expect(trace.droppedSpans).toBe(0);
    const byId = new Map(trace.spans.map((span) => [span.spanId, span]));
    const depth = (span: (typeof trace.spans)[number]): number =>
      span.parentId ? depth(byId.get(span.parentId) as typeof span) + 1 : 0;
    expect(trace.spans.map((span) => `${"  ".repeat(depth(span))}${span.kind}`)).toEqual([
      "run",
      "  queue",
      "  build",
      "  execute",
      "    kv",
      "    kv",
      "    fetch",
      "    catalog",
      "      run",
      "        queue",
      "        build",
      "        execute",
      "          kv",
    ]);
    const [root, , , execute, put, get, fetchSpan, catalog, nestedRun] = trace.spans;
    expect(root).toMatchObject({ name: "run main", runId: outcome.runId, ok: true, startMs: 0 });
    expect(put).toMatchObject({ attributes: { "kv.op": "put", "kv.key": "k", "kv.value_bytes": 12 } });
    expect(get).toMatchObject({ attributes: { "kv.op": "get", "kv.key": "k", "kv.hit": true } });
    expect(fetchSpan).toMatchObject({
      ok: true,
      attributes: {
        "http.request.method": "GET",
        "server.address": host,
        "url.path": "/data",
        "http.response.status_code": 200,
        "http.response.body.size": 12,
      },
    });
    expect(catalog).toMatchObject({ ok: true, attributes: { "catalog.ref": "helper", "catalog.agent": "helper@1" } });
    expect(nestedRun?.name).toBe("run helper");
    // Steps follow each other: every child starts within its parent, calls in the order they were made.
    for (const span of trace.spans.slice(1)) {
      const parent = byId.get(span.parentId as string);
      expect(span.startMs).toBeGreaterThanOrEqual(parent?.startMs ?? 0);
    }
    expect((put?.startMs ?? 0) <= (get?.startMs ?? 0) && (get?.startMs ?? 0) <= (fetchSpan?.startMs ?? 0)).toBe(true);
    expect((execute?.startMs ?? 0) <= (put?.startMs ?? 0)).toBe(true);
    expect((catalog?.startMs ?? 0) <= (nestedRun?.startMs ?? 0)).toBe(true);

    // Never a query string, a header or a kv value.
    const text = JSON.stringify(trace);
    for (const secret of ["abc123", "token=", "hunter2", "authorization", "s3cret-value", "helper-secret-value"])
      expect(text).not.toContain(secret);

    // The nested run has its own record (its span opens it), and its console lines are attributed to it.
    const nestedRunId = nestedRun?.runId as string;
    const nestedRecord = await session.getRun(nestedRunId);
    expect(nestedRecord).toMatchObject({ name: "helper", status: "ok", outcome: { result: 42 } });
    expect(nestedRecord.trace?.spans[0]).toMatchObject({ kind: "run", runId: nestedRunId });
    const logs = events.filter((event) => event.type === "log");
    expect(logs.map((event) => [event.values[0], event.from])).toEqual([
      [
        { t: "string", v: "helper got" },
        { runId: nestedRunId, agent: "helper" },
      ],
      [{ t: "string", v: "main done" }, undefined],
    ]);
    const helperCall = events.find((event) => event.type === "trace" && event.from !== undefined);
    expect(helperCall).toMatchObject({ capability: "kv", from: { agent: "helper" } });

    // OTLP/JSON export of the stored trace, and the same trace on the shared record.
    const otlp = traceToOtlp(trace, { runId: record.runId, name: record.name });
    expectValidOtlp(otlp, trace.spans.length);
    expect(otlp.resourceSpans[0]?.scopeSpans[0]?.spans[6]?.attributes).toContainEqual({
      key: "http.response.status_code",
      value: { intValue: "200" },
    });
    const { recordId } = await session.shareRun(outcome.runId);
    using viewer = createRpcClient({ url: workshop.url });
    const shared = (await viewer.api.openRecord(recordId).record()) as SharedRunRecord;
    expect(shared.trace).toEqual(trace);
  });

  it("keeps a bot token in a fetch's path out of the console, the trace, the record, the shared record and its page", async () => {
    const session = client.getSession();
    const token = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
    // The token is kept in kv (never in a trace or a record), as a gadget should keep it, not in its code.
    const draft = await session.createDraft({
      files: gadgetFiles(
        "notify",
        `export default {
  async run(input: { token?: string } | null, env: any) {
    if (input?.token) return env.kv.put("token", input.token);
    const token = await env.kv.get("token");
    const response = await env.fetch("http://${host}/bot" + token + "/sendMessage", { method: "POST", body: "hi" });
    return response.status;
  },
};`,
        { kv: true, fetch: { hosts: [host] } },
      ),
    });
    expect((await session.runDraft(draft.id, { token }, undefined, { timeoutMs: 10_000 })).status).toBe("ok");
    const events: RunEvent[] = [];
    const outcome = await session.runDraft(draft.id, null, (event) => void events.push(event), { timeoutMs: 10_000 });
    expect(outcome).toMatchObject({ status: "ok", result: 200 });
    // The request went out whole; only what the Workshop writes down is shaped.
    expect(seen.at(-1)?.url).toBe(`/bot${token}/sendMessage`);
    const secret = "AAHdqTcv";
    const line = events.find((event) => event.type === "trace" && event.capability === "fetch");
    expect(line).toMatchObject({ summary: `POST http://${host}/{…}/sendMessage → 200, 12 bytes` });
    const record = await session.getRun(outcome.runId);
    const fetchSpan = record.trace?.spans.find((span) => span.kind === "fetch");
    expect(fetchSpan?.attributes["url.path"]).toBe("/{…}/sendMessage");
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(JSON.stringify(record)).not.toContain(secret);

    const { recordId } = await session.shareRun(outcome.runId);
    using viewer = createRpcClient({ url: workshop.url });
    const shared = (await viewer.api.openRecord(recordId).record()) as SharedRunRecord;
    expect(shared.trace).toEqual(record.trace);
    expect(JSON.stringify(shared)).not.toContain(secret);
    // The public page renders its link preview from the record's stored preview.
    const page = await fetch(`${workshop.url}/r/${recordId}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("<title>Run of notify — Gadget Workshop</title>");
    expect(html).not.toContain(secret);
  });

  it("builds byte-identical files anew in another workspace: no build is taken from another's cache", async () => {
    const files = gadgetFiles("twin", `export default { async run() { return "twin-${Date.now()}"; } };`);
    const buildCached = async (workspace: WorkshopClient) => {
      const session = workspace.getSession();
      const draft = await session.createDraft({ files });
      const runs: boolean[] = [];
      for (let i = 0; i < 2; i++) {
        const outcome = await session.runDraft(draft.id, null, undefined, { timeoutMs: 10_000 });
        expect(outcome.status).toBe("ok");
        const build = (await session.getRun(outcome.runId)).trace?.spans.find((span) => span.kind === "build");
        runs.push(build?.attributes["build.cached"] === true);
      }
      return runs;
    };
    using other = await newWorkspace(workshop.url);
    // Each workspace builds the files on its first run and reuses its own build on the second.
    expect(await buildCached(client)).toEqual([false, true]);
    expect(await buildCached(other)).toEqual([false, true]);
  });

  it(`keeps ${MAX_SPANS_PER_RUN} spans and counts the ones past it as dropped`, async () => {
    const session = client.getSession();
    // The run's own four spans (run, queue, build, execute) and one span per kv call.
    const calls = (n: number) =>
      gadgetFiles(
        "busy",
        `export default { async run(_: unknown, env: any) { for (let i = 0; i < ${n}; i++) await env.kv.get("k" + i); return ${n}; } };`,
        { kv: true },
      );
    const spansOf = async (n: number) => {
      const draft = await session.createDraft({ files: calls(n) });
      const outcome = await session.runDraft(draft.id, null, undefined, { timeoutMs: 20_000 });
      expect(outcome.status).toBe("ok");
      return (await session.getRun(outcome.runId)).trace;
    };
    const atCap = await spansOf(MAX_SPANS_PER_RUN - 4);
    expect(atCap?.spans).toHaveLength(MAX_SPANS_PER_RUN);
    expect(atCap?.droppedSpans).toBe(0);
    const over = await spansOf(MAX_SPANS_PER_RUN - 3);
    expect(over?.spans).toHaveLength(MAX_SPANS_PER_RUN);
    expect(over?.droppedSpans).toBe(1);
    // The run's own spans are always kept.
    expect(over?.spans.slice(0, 4).map((span) => span.kind)).toEqual(["run", "queue", "build", "execute"]);
  });
});
