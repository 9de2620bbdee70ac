import type { GadgetGrants } from "@gadgets/workshop-shared/api";
import {
  KV_MAX_KEY_BYTES,
  KV_MAX_VALUE_BYTES,
  MAX_FETCH_REDIRECTS,
  MAX_FETCH_RESPONSE_BYTES,
  MAX_FETCHES_PER_RUN,
} from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { type CapabilityServices, createCapabilityHandler, type TraceInfo } from "./capabilities.ts";
import type { CapabilityCall, CapabilityReply } from "./executors/executor.ts";

/** A scripted network: each URL answers with the response its route builds; every request is kept. */
function fakeNetwork(routes: Record<string, (request: Request) => Response>) {
  const seen: { url: string; method: string; headers: Record<string, string>; body: string }[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    seen.push({
      url: request.url,
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body: request.body ? await request.text() : "",
    });
    const route = routes[request.url];
    if (!route) throw new Error("connection refused");
    return route(request);
  };
  return { seen, fetch };
}

function handler(options: {
  grants: GadgetGrants;
  network?: ReturnType<typeof fakeNetwork>;
  policy?: readonly string[] | null;
  signal?: AbortSignal;
  secrets?: ReadonlyMap<string, string>;
  inheritSecrets?: ReadonlyMap<string, string>;
}) {
  const catalogSecrets: ReadonlyMap<string, string>[] = [];
  const traces: TraceInfo[] = [];
  const kv = new Map<string, string>();
  const services: CapabilityServices = {
    kv: async (op, key, value) => {
      if (op === "put") kv.set(key, value ?? "");
      if (op === "get") return kv.get(key) ?? null;
      return null;
    },
    catalog: async (ref, payload, _relay, secrets) => {
      catalogSecrets.push(secrets);
      return {
        agent: ref,
        version: 1,
        outcome:
          ref === "broken"
            ? {
                status: "error",
                runId: "nested",
                kind: "user",
                message: "TypeError: no",
                timings: { queueMs: 0, buildMs: 0, runMs: 0, totalMs: 0 },
              }
            : {
                status: "ok",
                runId: "nested",
                result: { ref, payload },
                timings: { queueMs: 0, buildMs: 0, runMs: 0, totalMs: 0 },
              },
        trace: { startedAt: 0, spans: [], droppedSpans: 0 },
      };
    },
    fetch: (request) => (options.network ?? fakeNetwork({})).fetch(request),
    fetchPolicy: async () => options.policy ?? null,
  };
  const capabilities = createCapabilityHandler({
    grants: options.grants,
    services,
    trace: (info) => traces.push(info),
    signal: options.signal ?? new AbortController().signal,
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.inheritSecrets ? { inheritSecrets: options.inheritSecrets } : {}),
  });
  return {
    call: (call: CapabilityCall): Promise<CapabilityReply> => capabilities.call(call),
    traces,
    catalogSecrets,
  };
}

const get = (url: string, headers: [string, string][] = []): CapabilityCall => ({
  capability: "fetch",
  url,
  method: "GET",
  headers,
});
const redirect =
  (to: string, status = 302) =>
  () =>
    new Response(null, { status, headers: { location: to } });
const ok =
  (text = "ok") =>
  () =>
    new Response(text, { status: 200 });

describe("grants", () => {
  it("refuses every capability that was not granted, saying what to add", async () => {
    const { call } = handler({ grants: {} });
    expect(await call({ capability: "kv", op: "get", key: "a" })).toMatchObject({
      ok: false,
      error: expect.stringContaining('"kv": true'),
    });
    expect(await call(get("https://api.example.com/"))).toMatchObject({
      ok: false,
      error: expect.stringContaining("grants"),
    });
    expect(await call({ capability: "catalog", ref: "x", payload: null })).toMatchObject({ ok: false });
  });

  it("refuses every call once the run has ended", async () => {
    const ended = new AbortController();
    ended.abort();
    const { call } = handler({ grants: { kv: true }, signal: ended.signal });
    expect(await call({ capability: "kv", op: "get", key: "a" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("ended"),
    });
  });
});

describe("fetch", () => {
  it("reaches a listed host and refuses an unlisted one, naming the host to add", async () => {
    const network = fakeNetwork({ "https://api.example.com/a": ok("hello") });
    const { call } = handler({ grants: { fetch: { hosts: ["api.example.com"] } }, network });
    const reply = await call(get("https://api.example.com/a"));
    expect(reply).toMatchObject({ ok: true, value: { status: 200 } });
    expect(new TextDecoder().decode((reply as { value: { body: Uint8Array } }).value.body)).toBe("hello");
    expect(await call(get("https://evil.example.com/"))).toMatchObject({
      ok: false,
      error: expect.stringContaining('add "evil.example.com"'),
    });
    expect(network.seen).toHaveLength(1);
  });

  it("checks every redirect hop against the grant", async () => {
    const network = fakeNetwork({ "https://api.example.com/": redirect("https://internal.example.com/secret") });
    const { call } = handler({ grants: { fetch: { hosts: ["api.example.com"] } }, network });
    expect(await call(get("https://api.example.com/"))).toMatchObject({
      ok: false,
      error: expect.stringContaining("internal.example.com"),
    });
    expect(network.seen.map((request) => request.url)).toEqual(["https://api.example.com/"]);
  });

  it("drops credentials when a redirect leaves the origin, and keeps them within it", async () => {
    const network = fakeNetwork({
      "https://a.example.com/start": redirect("https://a.example.com/same"),
      "https://a.example.com/same": redirect("https://b.example.com/other"),
      "https://b.example.com/other": ok(),
    });
    const { call } = handler({ grants: { fetch: { hosts: ["a.example.com", "b.example.com"] } }, network });
    await call(
      get("https://a.example.com/start", [
        ["Authorization", "Bearer s3cret"],
        ["Cookie", "session=1"],
        ["Proxy-Authorization", "Basic x"],
        ["X-Trace", "kept"],
      ]),
    );
    const [first, second, third] = network.seen;
    expect(first?.headers.authorization).toBe("Bearer s3cret");
    expect(second?.headers.authorization).toBe("Bearer s3cret");
    expect(third?.headers).not.toHaveProperty("authorization");
    expect(third?.headers).not.toHaveProperty("cookie");
    expect(third?.headers).not.toHaveProperty("proxy-authorization");
    expect(third?.headers["x-trace"]).toBe("kept");
  });

  it("turns a POST into a GET without body on 303, and keeps method and body on 307", async () => {
    const network = fakeNetwork({
      "https://api.example.com/see-other": redirect("https://api.example.com/result", 303),
      "https://api.example.com/temporary": redirect("https://api.example.com/result", 307),
      "https://api.example.com/result": ok(),
    });
    const { call } = handler({ grants: { fetch: { hosts: ["api.example.com"] } }, network });
    const body = new TextEncoder().encode("payload");
    await call({ capability: "fetch", url: "https://api.example.com/see-other", method: "POST", headers: [], body });
    await call({ capability: "fetch", url: "https://api.example.com/temporary", method: "POST", headers: [], body });
    expect(network.seen.map(({ url, method, body }) => [url.split("/").pop(), method, body])).toEqual([
      ["see-other", "POST", "payload"],
      ["result", "GET", ""],
      ["temporary", "POST", "payload"],
      ["result", "POST", "payload"],
    ]);
  });

  it("keeps only well-formed header pairs, at most 100", async () => {
    const network = fakeNetwork({ "https://api.example.com/": ok() });
    const { call } = handler({ grants: { fetch: { hosts: ["api.example.com"] } }, network });
    const headers = [
      ["x-good", "1"],
      ["x-bad"],
      [1, 2],
      "x-string",
      ...Array.from({ length: 150 }, (_, i) => [`x-h${i}`, "v"]),
    ] as unknown as [string, string][];
    await call(get("https://api.example.com/", headers));
    const sent = network.seen[0]?.headers ?? {};
    expect(sent["x-good"]).toBe("1");
    expect(Object.keys(sent).filter((name) => name.startsWith("x-")).length).toBe(100);
  });

  it(`follows ${MAX_FETCH_REDIRECTS} redirects and refuses one more`, async () => {
    const routes: Record<string, () => Response> = {};
    for (let i = 0; i <= MAX_FETCH_REDIRECTS + 1; i++)
      routes[`https://api.example.com/${i}`] = redirect(`https://api.example.com/${i + 1}`);
    routes[`https://api.example.com/${MAX_FETCH_REDIRECTS}`] = ok();
    const { call } = handler({ grants: { fetch: { hosts: ["api.example.com"] } }, network: fakeNetwork(routes) });
    expect(await call(get("https://api.example.com/0"))).toMatchObject({ ok: true });
    routes[`https://api.example.com/${MAX_FETCH_REDIRECTS}`] = redirect(
      `https://api.example.com/${MAX_FETCH_REDIRECTS + 1}`,
    );
    expect(await call(get("https://api.example.com/0"))).toMatchObject({
      ok: false,
      error: expect.stringContaining("redirects"),
    });
  });

  it(`allows ${MAX_FETCHES_PER_RUN} fetches per run and refuses the next`, async () => {
    const { call } = handler({
      grants: { fetch: { hosts: ["api.example.com"] } },
      network: fakeNetwork({ "https://api.example.com/": ok() }),
    });
    for (let i = 0; i < MAX_FETCHES_PER_RUN; i++) expect((await call(get("https://api.example.com/"))).ok).toBe(true);
    expect(await call(get("https://api.example.com/"))).toMatchObject({
      ok: false,
      error: expect.stringContaining(`${MAX_FETCHES_PER_RUN}`),
    });
  });

  it("takes a response of exactly the limit and refuses one byte more, declared or streamed", async () => {
    const exact = "x".repeat(MAX_FETCH_RESPONSE_BYTES);
    const network = fakeNetwork({
      "https://api.example.com/exact": ok(exact),
      "https://api.example.com/streamed": () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(exact));
              controller.enqueue(new TextEncoder().encode("y"));
              controller.close();
            },
          }),
        ),
      "https://api.example.com/declared": () =>
        new Response("small", { headers: { "content-length": String(MAX_FETCH_RESPONSE_BYTES + 1) } }),
    });
    const { call } = handler({ grants: { fetch: { hosts: ["api.example.com"] } }, network });
    expect(await call(get("https://api.example.com/exact"))).toMatchObject({ ok: true });
    expect(await call(get("https://api.example.com/streamed"))).toMatchObject({ ok: false });
    expect(await call(get("https://api.example.com/declared"))).toMatchObject({ ok: false });
  });

  it("applies the workspace's host policy on top of the grant", async () => {
    const network = fakeNetwork({ "https://api.example.com/": ok(), "https://other.example.com/": ok() });
    const { call } = handler({
      grants: { fetch: { hosts: ["api.example.com", "other.example.com"] } },
      network,
      policy: ["api.example.com"],
    });
    expect(await call(get("https://api.example.com/"))).toMatchObject({ ok: true });
    expect(await call(get("https://other.example.com/"))).toMatchObject({
      ok: false,
      error: expect.stringContaining("policy"),
    });
  });

  it("traces a call without its query string or credentials", async () => {
    const network = fakeNetwork({ "https://api.example.com/data?key=s3cret": ok() });
    const { call, traces } = handler({ grants: { fetch: { hosts: ["api.example.com"] } }, network });
    await call(get("https://api.example.com/data?key=s3cret", [["authorization", "Bearer s3cret"]]));
    expect(traces).toHaveLength(1);
    expect(traces[0]?.summary).toContain("https://api.example.com/data?…");
    expect(JSON.stringify(traces)).not.toContain("s3cret");
  });

  it("traces a bot or webhook call with the path's shape, not the secret in it", async () => {
    const token = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
    const url = `https://api.telegram.org/bot${token}/sendMessage`;
    const network = fakeNetwork({ [url]: ok() });
    const { call, traces } = handler({ grants: { fetch: { hosts: ["api.telegram.org"] } }, network });
    expect(await call(get(url))).toMatchObject({ ok: true, value: { url } });
    expect(traces[0]?.summary).toBe("GET https://api.telegram.org/{…}/sendMessage → 200, 2 bytes");
    expect(traces[0]?.attributes["url.path"]).toBe("/{…}/sendMessage");
    expect(JSON.stringify(traces)).not.toContain("AAHdqTcv");
  });

  it("does not quote an invalid URL in the error the trace keeps", async () => {
    const { call, traces } = handler({ grants: { fetch: { hosts: ["api.telegram.org"] } }, network: fakeNetwork({}) });
    const reply = await call(get("api.telegram.org/bot123:AAHdqTcvCH1vGWJx/sendMessage"));
    expect(reply).toMatchObject({ ok: false, error: expect.stringContaining("Invalid URL") });
    expect(JSON.stringify(traces)).not.toContain("AAHdqTcv");
  });

  it("gives each call's span its facts: host, path, status, bytes; kv sizes but never values", async () => {
    const network = fakeNetwork({ "https://api.example.com/data?key=s3cret": ok("four") });
    const { call, traces } = handler({ grants: { fetch: { hosts: ["api.example.com"] }, kv: true }, network });
    await call(get("https://api.example.com/data?key=s3cret"));
    await call({ capability: "kv", op: "put", key: "k", value: "hidden-value" });
    await call({ capability: "kv", op: "get", key: "k" });
    expect(traces.map((trace) => trace.attributes)).toEqual([
      {
        "http.request.method": "GET",
        "server.address": "api.example.com",
        "url.path": "/data",
        "http.response.status_code": 200,
        "http.response.body.size": 4,
      },
      { "kv.op": "put", "kv.key": "k", "kv.value_bytes": 12 },
      { "kv.op": "get", "kv.key": "k", "kv.hit": true },
    ]);
    expect(JSON.stringify(traces)).not.toContain("hidden-value");
    for (const trace of traces) expect(trace.end).toBeGreaterThanOrEqual(trace.start);
  });
});

describe("catalog", () => {
  it("returns the called agent's result and hands its trace to the call's span", async () => {
    const { call, traces } = handler({ grants: { catalog: true } });
    expect(await call({ capability: "catalog", ref: "helper", payload: 1 })).toEqual({
      ok: true,
      value: { ref: "helper", payload: 1 },
    });
    expect(traces[0]).toMatchObject({
      capability: "catalog",
      ok: true,
      attributes: { "catalog.ref": "helper", "catalog.agent": "helper@1" },
      nested: { spans: [], droppedSpans: 0 },
    });
  });

  it("fails the call with the agent's outcome, keeping its trace", async () => {
    const { call, traces } = handler({ grants: { catalog: true } });
    expect(await call({ capability: "catalog", ref: "broken", payload: null })).toEqual({
      ok: false,
      error: "broken@1 failed (user): TypeError: no",
    });
    expect(traces[0]).toMatchObject({ ok: false, nested: { droppedSpans: 0 } });
  });
});

describe("kv", () => {
  it("takes keys and values of exactly the limit and refuses one byte more", async () => {
    const { call } = handler({ grants: { kv: true } });
    const key = "k".repeat(KV_MAX_KEY_BYTES);
    expect(await call({ capability: "kv", op: "put", key, value: "v".repeat(KV_MAX_VALUE_BYTES) })).toMatchObject({
      ok: true,
    });
    expect(await call({ capability: "kv", op: "get", key: `${key}k` })).toMatchObject({ ok: false });
    expect(
      await call({ capability: "kv", op: "put", key: "a", value: "v".repeat(KV_MAX_VALUE_BYTES + 1) }),
    ).toMatchObject({ ok: false });
  });

  it("refuses an empty key and an unknown operation", async () => {
    const { call } = handler({ grants: { kv: true } });
    expect(await call({ capability: "kv", op: "get", key: "" })).toMatchObject({ ok: false });
    expect(await call({ capability: "kv", op: "drop" as "get", key: "a" })).toMatchObject({ ok: false });
  });
});

describe("secrets in fetch headers", () => {
  const TOKEN = "tok_0123456789abcdef";
  const grants: GadgetGrants = {
    fetch: {
      hosts: ["api.example.com", "127.0.0.1:8080", "other.example.com"],
      headers: { "api.example.com": { Authorization: "Bearer {{API_TOKEN}}", "X-Pair": "{{API_TOKEN}}:{{OTHER}}" } },
    },
  };
  const secrets = new Map([
    ["API_TOKEN", TOKEN],
    ["OTHER", "other-value-1"],
  ]);

  it("adds the granted headers, secrets filled in, in place of the gadget's own, only to that host", async () => {
    const network = fakeNetwork({ "https://api.example.com/a": ok(), "http://127.0.0.1:8080/b": ok() });
    const { call, traces } = handler({ grants, network, secrets });
    expect((await call(get("https://api.example.com/a", [["authorization", "Bearer forged"]]))).ok).toBe(true);
    expect((await call(get("http://127.0.0.1:8080/b"))).ok).toBe(true);
    expect(network.seen[0]?.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      "x-pair": `${TOKEN}:other-value-1`,
    });
    expect(network.seen[1]?.headers.authorization).toBeUndefined();
    // Traces never carry header values.
    expect(JSON.stringify(traces)).not.toContain(TOKEN);
  });

  it("does not carry them after a redirect to another host, or to the same host over another scheme", async () => {
    const network = fakeNetwork({
      "https://api.example.com/start": redirect("https://api.example.com/same"),
      "https://api.example.com/same": redirect("https://other.example.com/away"),
      "https://other.example.com/away": ok(),
      "https://api.example.com/down": redirect("http://api.example.com/plain"),
      "http://api.example.com/plain": ok(),
    });
    const withHttp: GadgetGrants = { fetch: { ...grants.fetch, hosts: [...(grants.fetch?.hosts ?? [])] } };
    const { call } = handler({ grants: withHttp, network, secrets });
    expect((await call(get("https://api.example.com/start"))).ok).toBe(true);
    expect(network.seen.map((seen) => [seen.url, seen.headers.authorization])).toEqual([
      ["https://api.example.com/start", `Bearer ${TOKEN}`],
      ["https://api.example.com/same", `Bearer ${TOKEN}`],
      ["https://other.example.com/away", undefined],
    ]);
    expect((await call(get("https://api.example.com/down"))).ok).toBe(true);
    expect(network.seen.at(-1)).toMatchObject({ url: "http://api.example.com/plain" });
    expect(network.seen.at(-1)?.headers.authorization).toBeUndefined();
  });

  it("puts secrets only into https requests (or this machine's own), and sends no TRACE", async () => {
    const local: GadgetGrants = {
      fetch: {
        hosts: ["api.example.com", "127.0.0.1:8080"],
        headers: {
          "api.example.com": { Authorization: "Bearer {{API_TOKEN}}" },
          "127.0.0.1:8080": { "X-Key": "{{API_TOKEN}}" },
        },
      },
    };
    const network = fakeNetwork({ "http://api.example.com/plain": ok(), "http://127.0.0.1:8080/local": ok() });
    const { call } = handler({ grants: local, network, secrets });
    const plain = await call(get("http://api.example.com/plain"));
    expect(plain).toEqual({ ok: false, error: expect.stringContaining("only into https requests") });
    expect((await call(get("http://127.0.0.1:8080/local"))).ok).toBe(true);
    expect(network.seen.map((seen) => [seen.url, seen.headers["x-key"]])).toEqual([
      ["http://127.0.0.1:8080/local", TOKEN],
    ]);
    const trace = await call({ capability: "fetch", url: "https://api.example.com/a", method: "TRACE", headers: [] });
    expect(trace).toEqual({ ok: false, error: expect.stringContaining("Invalid request") });
  });

  it("refuses the fetch when a template names a secret that is not set, naming the secret, not sending anything", async () => {
    const network = fakeNetwork({ "https://api.example.com/a": ok() });
    const { call } = handler({ grants, network, secrets: new Map([["API_TOKEN", TOKEN]]) });
    const reply = await call(get("https://api.example.com/a"));
    expect(reply).toEqual({ ok: false, error: expect.stringContaining("from the secret OTHER, which is not set") });
    expect(JSON.stringify(reply)).not.toContain(TOKEN);
    expect(network.seen).toEqual([]);
  });

  it("refuses a secret with a line break in a header", async () => {
    const network = fakeNetwork({ "https://api.example.com/a": ok() });
    const broken = new Map([
      ["API_TOKEN", "line\r\nX-Injected: 1"],
      ["OTHER", "other-value-1"],
    ]);
    const reply = await handler({ grants, network, secrets: broken }).call(get("https://api.example.com/a"));
    expect(reply).toEqual({ ok: false, error: expect.stringContaining("holds a line break") });
    expect(network.seen).toEqual([]);
  });

  it("hands a catalog call the secrets the calling run could see, for its run to redact", async () => {
    const inherited = new Map([["API_TOKEN", TOKEN]]);
    const { call, catalogSecrets } = handler({ grants: { catalog: true }, inheritSecrets: inherited });
    expect((await call({ capability: "catalog", ref: "x", payload: null })).ok).toBe(true);
    expect(catalogSecrets).toEqual([inherited]);
  });
});
