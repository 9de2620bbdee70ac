/**
 * HTTP endpoints of published agents (`triggers.http`) on a started Workshop, over real HTTP: the
 * request as the agent's input, its outcome as the answer, the gadget origin kept apart from the
 * IDE's, the limits, traceparent, and the records (via "http", with the status answered).
 */

import { createHmac } from "node:crypto";
import { Agent } from "node:http";
import {
  ENDPOINT_REQUESTS_PER_CLIENT_PER_MINUTE,
  ENDPOINT_REQUESTS_PER_MINUTE,
  createRpcClient,
  errorCode,
  type GadgetFile,
  MAX_CONCURRENT_ENDPOINT_RUNS_PER_WORKSPACE,
  MAX_CONCURRENT_RUNS_PER_WORKSPACE,
  MAX_ENDPOINT_BODY_BYTES,
  MISSES_PER_CLIENT_PER_MINUTE,
  REQUEST_BODY_READ_MS,
  type RunRecord,
  type Session,
} from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpGet, httpTrickle } from "./abuse-helpers.ts";
import { type Connected, connectNewWorkspace, endpointsUrl, eventually, workshopUrl } from "./helpers.ts";

const ECHO_REQUEST = `export default {
  async run(request) {
    return request;
  },
};
`;

/** A "full" gadget: answers what its request's JSON body says to answer. */
const FULL_ANSWER = `export default {
  async run(request) {
    return request.body;
  },
};
`;

function endpointGadget(
  name: string,
  http: Record<string, unknown> | undefined,
  source = ECHO_REQUEST,
  extra: Record<string, unknown> = {},
): GadgetFile[] {
  return [
    {
      path: "gadget.json",
      content: JSON.stringify({ name, entry: "index.ts", ...(http ? { triggers: { http } } : {}), ...extra }),
    },
    { path: "index.ts", content: source },
  ];
}

/** Publishes a new draft of these files; answers the draft id and the endpoint URL publishDraft gave. */
async function publish(session: Session, files: GadgetFile[]): Promise<{ draftId: string; url: string }> {
  const draft = await session.createDraft({ files });
  const version = await session.publishDraft(draft.id);
  return { draftId: draft.id, url: version.endpointUrl ?? "" };
}

async function republish(session: Session, draftId: string, files: GadgetFile[]): Promise<string | undefined> {
  const draft = await session.openDraft(draftId);
  const saved = await session.saveDraft(draftId, { baseVersion: draft.version, files });
  if (saved.status !== "saved") throw new Error(`not saved: ${saved.status}`);
  return (await session.publishDraft(draftId)).endpointUrl;
}

/** The run's record once it is stored (records are written in batches after the answer). */
async function recordOf(session: Session, runId: string | null): Promise<RunRecord> {
  if (!runId) throw new Error("no Workshop-Run-Id");
  let record: RunRecord | undefined;
  await eventually(async () => {
    record = await session.getRun(runId).catch(() => undefined);
    return record !== undefined;
  });
  if (!record) throw new Error(`run ${runId} was never recorded`);
  return record;
}

/** The runs started via "http" the workspace has recorded so far. */
const httpRuns = async (session: Session) => (await session.listRuns(200)).filter((run) => run.via === "http");

describe("HTTP endpoints", () => {
  let owner: Connected;
  let session: Session;
  let echoUrl: string;

  beforeAll(async () => {
    owner = await connectNewWorkspace();
    session = owner.client.getSession();
    echoUrl = (await publish(session, endpointGadget("echo-request", {}))).url;
  });
  afterAll(() => owner?.client[Symbol.dispose]());

  it("gives a published agent an unguessable endpoint on the gadget origin, listed with its URL", async () => {
    expect(echoUrl).toMatch(new RegExp(`^${endpointsUrl()}/h/[A-Za-z0-9_-]{22}$`));
    expect(new URL(echoUrl).origin).not.toBe(new URL(workshopUrl()).origin);
    const listed = await session.listEndpoints();
    expect(listed).toEqual([
      expect.objectContaining({
        agentName: "echo-request",
        url: echoUrl,
        response: "json",
        endpoint: echoUrl.split("/").pop(),
      }),
    ]);
  });

  it("runs the agent with method, path, query, lower-case headers and a JSON body, and answers its result as JSON", async () => {
    const response = await fetch(`${echoUrl}/orders/42?expand=items&tag=a&tag=b`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Request-Source": "test", Cookie: "session=abc" },
      body: JSON.stringify({ qty: 3 }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const input = (await response.json()) as Record<string, unknown>;
    expect(input).toMatchObject({
      method: "POST",
      path: "/orders/42",
      query: { expand: "items", tag: ["a", "b"] },
      headers: { "content-type": "application/json", "x-request-source": "test" },
      body: { qty: 3 },
    });
    expect(input.headers).not.toHaveProperty("cookie");
    expect(input.headers).not.toHaveProperty("workshop-socket");
  });

  it.each(["GET", "PUT", "PATCH", "DELETE", "OPTIONS"])("answers %s, a text body as text", async (method) => {
    const withBody = method !== "GET" && method !== "OPTIONS";
    const response = await fetch(echoUrl, {
      method,
      ...(withBody ? { body: "plain words", headers: { "Content-Type": "text/plain" } } : {}),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ method, path: "/", body: withBody ? "plain words" : null });
  });

  it("answers every endpoint response sandboxed, unsniffed, uncached, and naming its run", async () => {
    const response = await fetch(echoUrl);
    expect(response.headers.get("content-security-policy")).toBe("sandbox");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("set-cookie")).toBeNull();
    const record = await recordOf(session, response.headers.get("workshop-run-id"));
    expect(record.via).toBe("http");
  });

  it("records the run via http with its method, shaped path and status, and no credential in its payload", async () => {
    const secretPath = "/bot8123456789:AAHk2J9sQx7Zz_EXAMPLE0tokenQ/send";
    const response = await fetch(`${echoUrl}${secretPath}?token=t0ps3cret&page=2`, {
      method: "POST",
      headers: { Authorization: "Bearer hunter2-secret", "Content-Type": "application/json" },
      body: "{}",
    });
    // The gadget itself got the credentials as sent.
    expect(await response.json()).toMatchObject({
      headers: { authorization: "Bearer hunter2-secret" },
      query: { token: "t0ps3cret" },
    });
    const record = await recordOf(session, response.headers.get("workshop-run-id"));
    expect(record.trigger).toEqual({ kind: "http", method: "POST", path: "/{…}/send", status: 200 });
    expect(record.payload).toMatchObject({
      path: "/{…}/send",
      headers: { authorization: "[redacted]" },
      query: { token: "[redacted]", page: "2" },
    });
    expect(JSON.stringify(record.payload)).not.toContain("AAHk2J9sQx7Zz");
    expect(JSON.stringify(record.payload)).not.toContain("hunter2");
    expect(JSON.stringify(record.payload)).not.toContain("t0ps3cret");
    const runs = await httpRuns(session);
    expect(runs.find((run) => run.runId === record.runId)?.trigger).toEqual(record.trigger);
  });

  it("records a multipart body with a credential part as redacted, and JSON sent as text redacted as JSON", async () => {
    const form = new FormData();
    form.set("note", "hello");
    form.set("api_key", "mult1part-secret");
    const multipart = await fetch(echoUrl, { method: "POST", body: form });
    expect(((await multipart.json()) as { body: string }).body).toContain("mult1part-secret");
    const multipartRecord = await recordOf(session, multipart.headers.get("workshop-run-id"));
    expect(multipartRecord.payload).toMatchObject({ body: "[redacted]" });
    const text = await fetch(echoUrl, { method: "POST", body: JSON.stringify({ secret: "t3xt-secret", n: 1 }) });
    expect(text.status).toBe(200);
    const textRecord = await recordOf(session, text.headers.get("workshop-run-id"));
    expect(textRecord.payload).toMatchObject({ body: JSON.stringify({ secret: "[redacted]", n: 1 }) });
  });

  it("keeps a Slack-style form's JSON payload, an X-Auth-Key and a Referer's token out of the record and out of its share", async () => {
    const payload = JSON.stringify({ type: "block_actions", token: "sl4ck-secret", user: { id: "U1" } });
    const response = await fetch(echoUrl, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Auth-Key": "cf-gl0bal-key",
        Referer: "https://app.example/cb?access_token=r3ferer-token",
      },
      body: new URLSearchParams({ payload }).toString(),
    });
    expect(response.status).toBe(200);
    const runId = response.headers.get("workshop-run-id");
    const record = await recordOf(session, runId);
    const kept = JSON.stringify(record.payload);
    for (const secret of ["sl4ck-secret", "cf-gl0bal-key", "r3ferer-token"]) expect(kept).not.toContain(secret);
    expect(kept).toContain("block_actions");
    // A shared record is what a stranger reads (its result is this echo's own answer: the request as sent).
    const { recordId } = await session.shareRun(runId ?? "");
    using stranger = createRpcClient({ url: workshopUrl() });
    const shared = JSON.stringify((await stranger.api.openRecord(recordId).record()).payload);
    expect(shared).toContain("block_actions");
    for (const secret of ["sl4ck-secret", "cf-gl0bal-key", "r3ferer-token"]) expect(shared).not.toContain(secret);
  });

  it('gives a body as sent with "body": "text", so an agent can check a webhook\'s signature over it', async () => {
    const verify = `const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
export default {
  async run(request) {
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode("hook-k3y"), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(request.body));
    const valid = request.headers["x-hub-signature-256"] === "sha256=" + hex(mac);
    return { valid, id: valid ? JSON.parse(request.body).id : null };
  },
};`;
    const { url } = await publish(session, endpointGadget("signed-hook", { body: "text" }, verify));
    // Pretty-printed, with a number and a character JSON.parse would not give back as sent.
    const body = '{\n  "id": "evt_1",\n  "amount": 10.50,\n  "name": "caf\u00e9"\n}';
    const signature = `sha256=${createHmac("sha256", "hook-k3y").update(body).digest("hex")}`;
    const post = (sig: string) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": sig },
        body,
      });
    const signed = await post(signature);
    expect(await signed.json()).toEqual({ valid: true, id: "evt_1" });
    const forged = await post(`sha256=${"0".repeat(64)}`);
    expect(await forged.json()).toEqual({ valid: false, id: null });
  });

  it("answers the status, headers and body a full gadget chose, strips its Set-Cookie, keeps its Cache-Control", async () => {
    const { url } = await publish(session, endpointGadget("full-answer", { response: "full" }, FULL_ANSWER));
    const answer = {
      status: 201,
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "X-Made-By": "gadget",
        "Set-Cookie": "id=1; Path=/",
        "Cache-Control": "max-age=30",
      },
      body: "<h1>made</h1>",
    };
    const response = await fetch(url, {
      method: "POST",
      body: JSON.stringify(answer),
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("x-made-by")).toBe("gadget");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("max-age=30");
    expect(response.headers.get("content-security-policy")).toBe("sandbox");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.text()).toBe("<h1>made</h1>");
    expect((await recordOf(session, response.headers.get("workshop-run-id"))).trigger).toMatchObject({ status: 201 });

    const teapot = await fetch(url, {
      method: "POST",
      body: JSON.stringify({ status: 418, body: { short: "and stout" } }),
      headers: { "content-type": "application/json" },
    });
    expect(teapot.status).toBe(418);
    expect(await teapot.json()).toEqual({ short: "and stout" });

    const malformed = await fetch(url, {
      method: "POST",
      body: JSON.stringify({ status: 99, body: "x" }),
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(502);
    expect(await malformed.json()).toEqual({
      error: {
        kind: "bad_response",
        message: expect.stringContaining('"status" must be a whole number from 200 to 599'),
      },
    });
    expect((await recordOf(session, malformed.headers.get("workshop-run-id"))).trigger).toMatchObject({ status: 502 });
  });

  it("answers a failed run 500 with its kind and message (no stack), and input its schema refuses 400", async () => {
    const { url } = await publish(
      session,
      endpointGadget("strict-thrower", {}, `export default { async run() { throw new Error("nope, not today"); } };`, {
        inputSchema: { type: "object", required: ["method"], properties: { body: { type: ["object", "null"] } } },
      }),
    );
    const thrown = await fetch(url);
    expect(thrown.status).toBe(500);
    const body = (await thrown.json()) as { error: { kind: string; message: string } };
    expect(body.error.kind).toBe("user");
    expect(body.error.message).toContain("nope, not today");
    // The message names where it was thrown; the stack itself stays in the record.
    expect(Object.keys(body.error)).toEqual(["kind", "message"]);
    expect(body.error.message).not.toContain("\n");
    const refused = await fetch(url, { method: "POST", body: "text is not an object" });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { kind: string } }).error.kind).toBe("invalid");
  });

  it("answers 500 without the details when the agent cannot run as published: its record has them", async () => {
    const { url } = await publish(
      session,
      endpointGadget("bad-result", {}, `export default { run: () => ({ total: "many" }) };`, {
        outputSchema: { type: "object", properties: { total: { type: "number" } } },
      }),
    );
    const response = await fetch(url);
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(body).not.toContain("outputSchema");
    expect(body).not.toContain("many");
    const record = await recordOf(session, response.headers.get("workshop-run-id"));
    expect(record.outcome).toMatchObject({ kind: "invalid", message: expect.stringContaining("outputSchema") });
    expect(record.trigger).toMatchObject({ status: 500 });
  });

  it("answers a run past its deadline 504", async () => {
    const { url } = await publish(session, endpointGadget("spinner", {}, `export default { run() { for (;;) {} } };`));
    const response = await fetch(url);
    expect(response.status).toBe(504);
    expect(((await response.json()) as { error: { kind: string } }).error.kind).toBe("timeout");
  });

  it(`takes a body of ${MAX_ENDPOINT_BODY_BYTES} bytes and refuses one more with 413, running nothing`, async () => {
    const exact = await fetch(echoUrl, { method: "POST", body: "a".repeat(MAX_ENDPOINT_BODY_BYTES) });
    expect(exact.status).toBe(200);
    expect(((await exact.json()) as { body: string }).body.length).toBe(MAX_ENDPOINT_BODY_BYTES);
    await recordOf(session, exact.headers.get("workshop-run-id"));
    const before = (await httpRuns(session)).length;
    const over = await fetch(echoUrl, { method: "POST", body: "a".repeat(MAX_ENDPOINT_BODY_BYTES + 1) });
    expect(over.status).toBe(413);
    expect(over.headers.get("workshop-run-id")).toBeNull();
    expect(((await over.json()) as { error: { message: string } }).error.message).toContain(
      `larger than ${MAX_ENDPOINT_BODY_BYTES} bytes`,
    );
    await new Promise((done) => setTimeout(done, 300));
    expect((await httpRuns(session)).length).toBe(before);
  });

  it(
    `refuses a body that has not arrived ${REQUEST_BODY_READ_MS / 1000} s after its headers with 408, running nothing`,
    async () => {
      const before = (await httpRuns(session)).length;
      const slow = await httpTrickle(echoUrl, {
        headers: { "content-type": "application/json" },
        sent: '{"a":',
        declared: 1000,
      });
      expect(slow.status).toBe(408);
      expect(JSON.parse(slow.body)).toMatchObject({
        error: { kind: "too_slow", message: expect.stringContaining(`within ${REQUEST_BODY_READ_MS / 1000} s`) },
      });
      // The endpoint still serves a body sent whole.
      expect((await fetch(echoUrl, { method: "POST", body: "{}" })).status).toBe(200);
      expect(await eventually(async () => (await httpRuns(session)).length === before + 1)).toBe(true);
    },
    REQUEST_BODY_READ_MS + 20_000,
  );

  it("keeps one endpoint across versions, turns it off with a version without triggers.http, and answers the same 404 as an unknown one", async () => {
    const files = endpointGadget("switchable", {});
    const { draftId, url } = await publish(session, files);
    expect(
      await republish(
        session,
        draftId,
        endpointGadget("switchable", { response: "json" }, "export default { run: () => 2 };"),
      ),
    ).toBe(url);
    expect(await (await fetch(url)).json()).toBe(2);
    expect(await republish(session, draftId, endpointGadget("switchable", undefined))).toBeUndefined();
    expect((await session.listEndpoints()).map((e) => e.url)).not.toContain(url);
    const off = await fetch(`${url}/x`);
    const unknown = await fetch(`${endpointsUrl()}/h/AAAAAAAAAAAAAAAAAAAAAA/x`);
    expect(off.status).toBe(404);
    expect(unknown.status).toBe(404);
    const offBody = await off.text();
    expect(offBody).toBe(await unknown.text());
    expect(offBody).not.toContain(owner.workspaceId);
    expect(offBody).not.toContain("switchable");
    expect(off.headers.get("content-security-policy")).toBe("sandbox");
    // On again: the same URL.
    expect(await republish(session, draftId, files)).toBe(url);
  });

  it("gives a named endpoint the name, refuses it to another workspace and to another agent, at publish, naming the field", async () => {
    const name = `hook-${Date.now().toString(36)}`;
    const { url } = await publish(session, endpointGadget("named", { name }));
    expect(url).toBe(`${endpointsUrl()}/h/${name}`);
    expect(await (await fetch(`${url}/ping`)).json()).toMatchObject({ path: "/ping" });

    const sameWorkspace = await session.createDraft({ files: endpointGadget("named-too", { name }) });
    const refusedHere = await session.publishDraft(sameWorkspace.id).catch((error: unknown) => error);
    expect(errorCode(refusedHere)).toBe("NAME_TAKEN");
    expect((refusedHere as Error).message).toContain(
      `"triggers.http.name" "${name}" is already the endpoint of agent "named"`,
    );

    const other = await connectNewWorkspace();
    try {
      const otherSession = other.client.getSession();
      const draft = await otherSession.createDraft({ files: endpointGadget("squatter", { name }) });
      const refused = await otherSession.publishDraft(draft.id).catch((error: unknown) => error);
      expect(errorCode(refused)).toBe("NAME_TAKEN");
      expect((refused as Error).message).toContain(`"triggers.http.name" "${name}" is taken`);
      expect(await otherSession.listAgents()).toEqual([]);
    } finally {
      other.client[Symbol.dispose]();
    }
    // Still the first workspace's agent.
    expect(await (await fetch(url)).json()).toMatchObject({ method: "GET" });
  });

  it("answers endpoints only on the gadget origin, and nothing else there", async () => {
    const path = new URL(echoUrl).pathname;
    const onIde = await fetch(`${workshopUrl()}${path}`);
    expect(onIde.status).toBe(404);
    expect(onIde.headers.get("workshop-run-id")).toBeNull();
    for (const idePath of ["/", "/health", "/api", "/mcp", "/s/AAAAAAAAAAAAAAAAAAAAAA", "/index.html"]) {
      const response = await fetch(`${endpointsUrl()}${idePath}`);
      expect(response.status, idePath).toBe(404);
      expect(response.headers.get("content-security-policy"), idePath).toBe("sandbox");
    }
  });

  it("does not let a client on the IDE's port pass for the gadget origin with forged headers", async () => {
    const path = new URL(echoUrl).pathname;
    const forged = await httpGet(`${workshopUrl()}${path}`, {
      headers: { "Workshop-Socket": "endpoints", Host: new URL(endpointsUrl()).host },
    });
    expect(forged.status).toBe(404);
    expect(forged.body).not.toContain('"method"');
    // And the gadget origin stays the gadget origin whatever its client says.
    const reverse = await httpGet(`${endpointsUrl()}/health`, {
      headers: { "Workshop-Socket": "ide", Host: new URL(workshopUrl()).host },
    });
    expect(reverse.status).toBe(404);
    // A host it does not answer for is refused there as every answer of the gadget origin is made.
    const rebound = await httpGet(echoUrl, { headers: { Host: "rebound.example" } });
    expect(rebound.status).toBe(421);
    expect(rebound.headers["content-security-policy"]).toBe("sandbox");
    expect(rebound.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("joins a caller's trace from traceparent and answers traceresponse; a malformed one is ignored", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parent = "00f067aa0ba902b7";
    const response = await fetch(echoUrl, { headers: { traceparent: `00-${traceId}-${parent}-01` } });
    const record = await recordOf(session, response.headers.get("workshop-run-id"));
    expect(record.trace).toMatchObject({ traceId, parentSpanId: parent });
    const root = record.trace?.spans.find((span) => span.kind === "run");
    expect(response.headers.get("traceresponse")).toBe(`00-${traceId}-${root?.spanId}-01`);

    const malformed = await fetch(echoUrl, { headers: { traceparent: `00-${"0".repeat(32)}-${parent}-01` } });
    expect(malformed.status).toBe(200);
    const plain = await recordOf(session, malformed.headers.get("workshop-run-id"));
    expect(plain.trace?.traceId).toBeUndefined();
    expect(malformed.headers.get("traceresponse")).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });

  it(`serves a client ${ENDPOINT_REQUESTS_PER_CLIENT_PER_MINUTE} requests a minute per endpoint, then 429 saying so, while others are served`, async () => {
    const { url } = await publish(session, endpointGadget("client-limited", {}, "export default { run: () => 1 };"));
    const noisy = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < ENDPOINT_REQUESTS_PER_CLIENT_PER_MINUTE; i++)
        expect((await httpGet(url, { agent: noisy })).status).toBe(200);
      const refused = await httpGet(url, { agent: noisy });
      expect(refused.status).toBe(429);
      expect(refused.body).toContain(
        `This client sent ${ENDPOINT_REQUESTS_PER_CLIENT_PER_MINUTE} requests to this endpoint`,
      );
    } finally {
      noisy.destroy();
    }
    expect((await httpGet(url, { agent: false })).status).toBe(200);
  });

  it(`takes ${ENDPOINT_REQUESTS_PER_MINUTE} requests a minute per endpoint from all clients, then 429 saying so; other endpoints go on`, async () => {
    const { url } = await publish(session, endpointGadget("endpoint-limited", {}, "export default { run: () => 1 };"));
    // Each request on its own connection: a client of its own, far below the per-client limit.
    let sent = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (sent < ENDPOINT_REQUESTS_PER_MINUTE) {
          sent++;
          statuses.push((await httpGet(url, { agent: false })).status);
        }
      }),
    );
    expect(statuses.filter((status) => status === 200).length).toBe(ENDPOINT_REQUESTS_PER_MINUTE);
    const refused = await httpGet(url, { agent: false });
    expect(refused.status).toBe(429);
    expect(refused.body).toContain(`This endpoint took ${ENDPOINT_REQUESTS_PER_MINUTE} requests in the last minute`);
    expect((await httpGet(echoUrl, { agent: false })).status).toBe(200);
  });

  it(`counts a burst sent all at once against the ${ENDPOINT_REQUESTS_PER_MINUTE}-a-minute limit: what passes it is refused with 429, not served`, async () => {
    const { url } = await publish(session, endpointGadget("burst-limited", {}, "export default { run: () => 1 };"));
    const over = 30;
    // Every request on its own connection, all in flight before any is answered.
    const statuses = await Promise.all(
      Array.from({ length: ENDPOINT_REQUESTS_PER_MINUTE + over }, () => httpGet(url, { agent: false })),
    ).then((answers) => answers.map((answer) => answer.status));
    const refused = statuses.filter((status) => status === 429).length;
    expect(refused).toBe(over);
    // The rest were taken: served, or answered busy by the workspace's run cap.
    expect(statuses.filter((status) => status === 200 || status === 503).length).toBe(ENDPOINT_REQUESTS_PER_MINUTE);
    expect((await httpGet(echoUrl, { agent: false })).status).toBe(200);
  });

  it(`holds a workspace's endpoint runs to ${MAX_CONCURRENT_ENDPOINT_RUNS_PER_WORKSPACE} at once, half its run cap: past that, 503 with Retry-After and no run, while another workspace's endpoints are served`, async () => {
    const sleeper = (name: string) =>
      endpointGadget(
        name,
        {},
        "export default { async run() { await new Promise((done) => setTimeout(done, 1000)); return 1; } };",
      );
    const { url } = await publish(session, sleeper("sleeper"));
    const other = await connectNewWorkspace();
    try {
      const otherUrl = (await publish(other.client.getSession(), sleeper("sleeper"))).url;
      let firstBusy: () => void = () => {};
      const atCap = new Promise<void>((resolve) => {
        firstBusy = resolve;
      });
      const flood = Promise.all(
        Array.from({ length: 20 }, async () => {
          const response = await fetch(url);
          if (response.status === 503) firstBusy();
          return { response, body: await response.text() };
        }),
      );
      // The first workspace is at its cap (a request was just refused) and its runs sleep on: the
      // second's endpoint, keyed apart, runs all the same.
      await Promise.race([atCap, flood]);
      const otherServed = await fetch(otherUrl);
      expect({ status: otherServed.status, body: JSON.parse(await otherServed.text()) }).toEqual({
        status: 200,
        body: 1,
      });
      const all = await flood;
      const busy = all.filter(({ response }) => response.status === 503);
      expect(JSON.parse(busy[0]?.body ?? "{}")).toMatchObject({
        error: { kind: "busy", message: expect.stringContaining("This workspace's endpoints already have") },
      });
      expect(busy[0]?.response.headers.get("retry-after")).toBe("1");
      expect(busy[0]?.response.headers.get("workshop-run-id")).toBeNull();
      const served = all.filter(({ response }) => response.status === 200).length;
      expect(served).toBeGreaterThan(0);
      expect(served).toBeLessThanOrEqual(MAX_CONCURRENT_ENDPOINT_RUNS_PER_WORKSPACE);
      expect(MAX_CONCURRENT_ENDPOINT_RUNS_PER_WORKSPACE).toBeLessThan(MAX_CONCURRENT_RUNS_PER_WORKSPACE);
    } finally {
      other.client[Symbol.dispose]();
    }
  });

  it(`counts an endpoint agent's catalog calls in its workspace's ${MAX_CONCURRENT_ENDPOINT_RUNS_PER_WORKSPACE} endpoint runs: past them, a call or a request is refused saying so`, async () => {
    // A workspace of its own, whose runs may outlast the naps they wait on.
    const own = await connectNewWorkspace();
    const ownSession = own.client.getSession();
    await ownSession.updateSettings({ runTimeoutMs: 15_000 });
    await publish(
      ownSession,
      endpointGadget(
        "nap",
        undefined,
        "export default { async run() { await new Promise((done) => setTimeout(done, 3000)); return 'rested'; } };",
      ),
    );
    // Each request is a run and makes two calls at once, each a run: 5 requests ask for 15 runs.
    const { url } = await publish(
      ownSession,
      endpointGadget(
        "fan-out",
        {},
        `export default { async run(_request, env) {
          const call = () => env.catalog.get("nap").run({}).then(String, (error) => error.message);
          return await Promise.all([call(), call()]);
        } };`,
        { grants: { catalog: true } },
      ),
    );
    try {
      const answers = await Promise.all(
        Array.from({ length: 5 }, async () => {
          const response = await fetch(url);
          return { status: response.status, body: JSON.parse(await response.text()) as unknown };
        }),
      );
      const served = answers.filter((answer) => answer.status === 200).map((answer) => answer.body as string[]);
      const refusals = [
        ...served.flat().filter((result) => result !== "rested"),
        ...answers
          .filter((answer) => answer.status === 503)
          .map((answer) => (answer.body as { error: { message: string } }).error.message),
      ];
      expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 503)).toEqual([]);
      expect(refusals.length).toBeGreaterThan(0);
      for (const refusal of refusals) expect(refusal).toContain("runs in flight (catalog calls included)");
      // Counted together only the runs that were in flight at once: each request with a nap that rested
      // and those naps lasted 3 s from a burst that started together. A request whose calls were both
      // refused may have ended, and given back its slot, before another request's call took one.
      const rested = served.flat().filter((result) => result === "rested").length;
      const napping = served.filter((results) => results.includes("rested")).length;
      expect(napping + rested).toBeLessThanOrEqual(MAX_CONCURRENT_ENDPOINT_RUNS_PER_WORKSPACE);
    } finally {
      own.client[Symbol.dispose]();
    }
  });

  it("serves a known endpoint to a client past its endpoint misses, and keeps those misses apart from its token and link misses", async () => {
    const sender = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // Hooks that went stale: one client's misses, up to and past its budget.
      for (let i = 0; i < MISSES_PER_CLIENT_PER_MINUTE; i++)
        expect((await httpGet(`${endpointsUrl()}/h/stale-hook-${i}`, { agent: sender })).status).toBe(404);
      const refused = await httpGet(`${endpointsUrl()}/h/stale-hook-more`, { agent: sender });
      expect(refused.status).toBe(429);
      expect(refused.body).toContain("Too many requests to endpoints that do not exist came from this client");
      // A live endpoint this Workshop has served is still served to it.
      expect((await httpGet(echoUrl, { agent: sender })).status).toBe(200);
    } finally {
      sender.destroy();
    }
  });

  it("keeps two workspaces' endpoints apart: each lists and records only its own", async () => {
    const other = await connectNewWorkspace();
    try {
      const otherSession = other.client.getSession();
      const { url } = await publish(
        otherSession,
        endpointGadget("theirs", {}, "export default { run: () => 'theirs' };"),
      );
      expect(await (await fetch(url)).json()).toBe("theirs");
      expect((await otherSession.listEndpoints()).map((e) => e.url)).toEqual([url]);
      expect((await session.listEndpoints()).map((e) => e.url)).not.toContain(url);
      const response = await fetch(echoUrl);
      const runId = response.headers.get("workshop-run-id") ?? "";
      await recordOf(session, runId);
      await expect(otherSession.getRun(runId)).rejects.toThrow();
      await eventually(async () => (await httpRuns(otherSession)).length === 1);
      expect((await httpRuns(otherSession)).map((run) => run.name)).toEqual(["theirs"]);
    } finally {
      other.client[Symbol.dispose]();
    }
  });
});
