import { MAX_ENDPOINT_BODY_BYTES, MAX_PAYLOAD_BYTES } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { REDACTED, readEndpointRequest } from "./endpoint-request.ts";

const URL_BASE = "http://127.0.0.1:8788/h/hook";

/** A request with a streamed body and no Content-Length, as a chunked upload arrives. */
function chunked(bytes: number): Request {
  const chunk = new Uint8Array(64 * 1024).fill(97);
  let left = bytes;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left <= 0) return controller.close();
      const next = chunk.subarray(0, Math.min(chunk.byteLength, left));
      left -= next.byteLength;
      controller.enqueue(next);
    },
  });
  return new Request(`${URL_BASE}/up`, { method: "POST", body, duplex: "half" } as RequestInit);
}

describe("readEndpointRequest", () => {
  it("reads method, the path below the endpoint, query and lower-case headers, and a JSON body as JSON", async () => {
    const request = new Request(`${URL_BASE}/a/b%20c?x=1&tag=a&tag=b&empty=`, {
      method: "post",
      headers: { "Content-Type": "application/json; charset=utf-8", "X-Custom": "yes" },
      body: JSON.stringify({ hello: ["world"] }),
    });
    const read = await readEndpointRequest(request, "/a/b%20c");
    expect(read).toMatchObject({
      ok: true,
      input: {
        method: "POST",
        path: "/a/b%20c",
        query: { x: "1", tag: ["a", "b"], empty: "" },
        headers: { "content-type": "application/json; charset=utf-8", "x-custom": "yes" },
        body: { hello: ["world"] },
      },
    });
  });

  it("answers text for a text body, a JSON type that does not parse, and null without a body", async () => {
    const text = await readEndpointRequest(new Request(URL_BASE, { method: "PUT", body: "a=1&b=2" }), "/");
    expect(text.ok && text.input.body).toBe("a=1&b=2");
    const broken = await readEndpointRequest(
      new Request(URL_BASE, { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" }),
      "/",
    );
    expect(broken.ok && broken.input.body).toBe("{nope");
    const vendor = await readEndpointRequest(
      new Request(URL_BASE, { method: "POST", headers: { "content-type": "application/vnd.api+json" }, body: "[1]" }),
      "/",
    );
    expect(vendor.ok && vendor.input.body).toEqual([1]);
    const none = await readEndpointRequest(new Request(URL_BASE), "/");
    expect(none.ok && none.input).toMatchObject({ method: "GET", body: null, query: {} });
  });

  it("gives the gadget the path as sent and keeps its shape in the record: a segment may be a token", async () => {
    const path = "/bot8123456789:AAHk2J9sQx7Zz_EXAMPLE0tokenQ/send";
    const read = await readEndpointRequest(new Request(`${URL_BASE}${path}`), path);
    expect(read.ok && [read.input.path, read.recorded.path]).toEqual([path, "/{…}/send"]);
  });

  it("never passes Cookie or the socket header on, and keeps Authorization for the gadget but not the record", async () => {
    const request = new Request(`${URL_BASE}?access_token=abc&page=2&key=k1`, {
      headers: {
        Cookie: "session=1",
        "Workshop-Socket": "endpoints",
        Authorization: "Bearer s3cret",
        "X-Api-Key": "k2",
        "X-Hub-Signature-256": "sha256=00",
      },
    });
    const read = await readEndpointRequest(request, "/");
    if (!read.ok) throw new Error("refused");
    expect(read.input.headers).not.toHaveProperty("cookie");
    expect(read.input.headers).not.toHaveProperty("workshop-socket");
    expect(read.input.headers.authorization).toBe("Bearer s3cret");
    expect(read.input.query).toMatchObject({ access_token: "abc", key: "k1" });
    expect(read.recorded.headers).toMatchObject({
      authorization: REDACTED,
      "x-api-key": REDACTED,
      "x-hub-signature-256": "sha256=00",
    });
    expect(read.recorded.query).toEqual({ access_token: REDACTED, page: "2", key: REDACTED });
    expect(JSON.stringify(read.recorded)).not.toMatch(/s3cret|abc|k1|k2/);
  });

  it("redacts the credential names of other clouds, and a signed URL's signature only in a query", async () => {
    const request = new Request(`${URL_BASE}?X-Amz-Signature=q1&sig=q2&code=q3&X-Amz-Date=20261203`, {
      headers: {
        "X-Functions-Key": "h1",
        "Ocp-Apim-Subscription-Key": "h2",
        "X-Access-Key": "h3",
        "X-Hub-Signature-256": "sha256=00",
      },
    });
    const read = await readEndpointRequest(request, "/");
    if (!read.ok) throw new Error("refused");
    expect(read.recorded.query).toEqual({
      "X-Amz-Signature": REDACTED,
      sig: REDACTED,
      code: REDACTED,
      "X-Amz-Date": "20261203",
    });
    expect(read.recorded.headers).toMatchObject({
      "x-functions-key": REDACTED,
      "ocp-apim-subscription-key": REDACTED,
      "x-access-key": REDACTED,
      "x-hub-signature-256": "sha256=00",
    });
    expect(JSON.stringify(read.recorded)).not.toMatch(/q1|q2|q3|h1|h2|h3/);
  });

  it("redacts credential fields of a JSON body at any depth and of a form body, and gives the gadget them whole", async () => {
    const json = { user: "ann", auth: { token: "j1" }, items: [{ api_key: "j2", n: 1 }], password: { nested: "j3" } };
    const jsonRead = await readEndpointRequest(
      new Request(URL_BASE, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(json),
      }),
      "/",
    );
    if (!jsonRead.ok) throw new Error("refused");
    expect(jsonRead.input.body).toEqual(json);
    expect(jsonRead.recorded.body).toEqual({
      user: "ann",
      auth: REDACTED,
      items: [{ api_key: REDACTED, n: 1 }],
      password: REDACTED,
    });
    const form = "token=f1&text=hello+there&user_name=ann";
    const formRead = await readEndpointRequest(
      new Request(URL_BASE, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
        body: form,
      }),
      "/",
    );
    if (!formRead.ok) throw new Error("refused");
    expect(formRead.input.body).toBe(form);
    expect(formRead.recorded.body).toBe(`token=${encodeURIComponent(REDACTED)}&text=hello+there&user_name=ann`);
    const plain = await readEndpointRequest(new Request(URL_BASE, { method: "POST", body: "a=1&b=2" }), "/");
    expect(plain.ok && plain.recorded.body).toBe("a=1&b=2");
  });

  it("redacts JSON sent as text, and keeps a multipart body with a credential part out of the record", async () => {
    const post = (body: BodyInit, headers: Record<string, string> = {}) =>
      readEndpointRequest(new Request(URL_BASE, { method: "POST", headers, body }), "/");
    // fetch(url, { body: JSON.stringify(…) }) sends text/plain.
    const text = JSON.stringify({ event: "push", secret: "t1" });
    const textRead = await post(text);
    if (!textRead.ok) throw new Error("refused");
    expect(textRead.input.body).toBe(text);
    expect(textRead.recorded.body).toBe(JSON.stringify({ event: "push", secret: REDACTED }));
    const harmless = '{ "event": "push" }';
    const harmlessRead = await post(harmless);
    expect(harmlessRead.ok && harmlessRead.recorded.body).toBe(harmless);

    const withToken = new FormData();
    withToken.set("message", "hi");
    withToken.set("api_key", "m1");
    const tokenRead = await post(withToken);
    if (!tokenRead.ok) throw new Error("refused");
    expect(tokenRead.input.body).toContain("m1");
    expect(tokenRead.recorded.body).toBe(REDACTED);
    const plainForm = new FormData();
    plainForm.set("message", "hi");
    const plainRead = await post(plainForm);
    expect(plainRead.ok && plainRead.recorded.body).toContain('name="message"');
    const broken = await post("token=m2", { "content-type": "multipart/form-data; boundary=x" });
    expect(broken.ok && broken.recorded.body).toBe(REDACTED);
  });

  it("redacts a form whatever its type, JSON in a form field, NDJSON, and keeps no text shaped like a credential field", async () => {
    const recordedBody = async (body: string, type?: string) => {
      const read = await readEndpointRequest(
        new Request(URL_BASE, { method: "POST", body, headers: type === undefined ? {} : { "content-type": type } }),
        "/",
      );
      if (!read.ok) throw new Error("refused");
      expect(read.input.body).toBe(body);
      return read.recorded.body;
    };
    // Slack's interactivity: a form whose `payload` field is JSON.
    const slack = `payload=${encodeURIComponent(JSON.stringify({ type: "block_actions", token: "s1", user: "ann" }))}`;
    expect(await recordedBody(slack, "application/x-www-form-urlencoded")).toBe(
      `payload=${encodeURIComponent(JSON.stringify({ type: "block_actions", token: REDACTED, user: "ann" }))}`.replace(
        /%20/g,
        "+",
      ),
    );
    expect(await recordedBody("token=t1&n=1", "text/plain")).toBe(`token=${encodeURIComponent(REDACTED)}&n=1`);
    expect(await recordedBody("client_secret=c1&a=1&a=2")).toBe(
      `client_secret=${encodeURIComponent(REDACTED)}&a=1&a=2`,
    );
    expect(await recordedBody('{"token":"b1",}', "application/json")).toBe(REDACTED);
    expect(await recordedBody('{"token":"n1"}\n{"token":"n2","n":2}\n', "application/x-ndjson")).toBe(
      `{"token":"${REDACTED}"}\n{"token":"${REDACTED}","n":2}`,
    );
    expect(await recordedBody("password: p1\nuser: ann", "text/yaml")).toBe(REDACTED);
    // Text that only mentions a key, and a form with nothing to hide, are kept as sent.
    expect(await recordedBody("Turn the key twice, then wait.", "text/plain")).toBe("Turn the key twice, then wait.");
    expect(await recordedBody("a=1&b=2")).toBe("a=1&b=2");
    expect(await recordedBody('{"a":1}\n{"b":2}', "application/x-ndjson")).toBe('{"a":1}\n{"b":2}');
  });

  it("redacts credential headers by their words, scheme-named values under any name, and a URL header's query", async () => {
    const request = new Request(`${URL_BASE}?auth_key=q1&pwd=q2&jwt=q3&sessionid=q4&page=2`, {
      headers: {
        "X-Auth-Key": "h1",
        Authentication: "h2",
        "X-Custom-Auth": "Bearer h3",
        Referer: "https://app.example/cb?access_token=h4&step=2",
        "X-Original-Url": "/cb?token=h5",
        "X-Request-Id": "r-1",
      },
    });
    const read = await readEndpointRequest(request, "/");
    if (!read.ok) throw new Error("refused");
    expect(read.recorded.query).toEqual({
      auth_key: REDACTED,
      pwd: REDACTED,
      jwt: REDACTED,
      sessionid: REDACTED,
      page: "2",
    });
    expect(read.recorded.headers).toMatchObject({
      "x-auth-key": REDACTED,
      authentication: REDACTED,
      "x-custom-auth": REDACTED,
      referer: `https://app.example/cb?access_token=${encodeURIComponent(REDACTED)}&step=2`,
      "x-original-url": `/cb?token=${encodeURIComponent(REDACTED)}`,
      "x-request-id": "r-1",
    });
    expect(JSON.stringify(read.recorded)).not.toMatch(/q[1-4]|h[1-5]/);
    expect(read.input.headers.referer).toBe("https://app.example/cb?access_token=h4&step=2");
  });

  it('gives every body as the text it was sent as in "text" mode, and records it redacted as in the other', async () => {
    const sent = '{ "event": "push",\n  "amount": 10.50, "token": "x1" }';
    const read = await readEndpointRequest(
      new Request(URL_BASE, { method: "POST", headers: { "content-type": "application/json" }, body: sent }),
      "/",
      "text",
    );
    if (!read.ok) throw new Error("refused");
    expect(read.input.body).toBe(sent);
    expect(read.recorded.body).toBe(JSON.stringify({ event: "push", amount: 10.5, token: REDACTED }));
    const parsed = await readEndpointRequest(
      new Request(URL_BASE, { method: "POST", headers: { "content-type": "application/json" }, body: sent }),
      "/",
    );
    expect(parsed.ok && parsed.input.body).toEqual({ event: "push", amount: 10.5, token: "x1" });
  });

  it("records no part of a JSON body nested too deep to walk, and still gives it to the gadget", async () => {
    const depth = 200_000;
    const text = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const read = await readEndpointRequest(
      new Request(URL_BASE, { method: "POST", headers: { "content-type": "application/json" }, body: text }),
      "/",
    );
    if (!read.ok) throw new Error("refused");
    expect(Array.isArray(read.input.body)).toBe(true);
    expect(read.recorded.body).toBe(REDACTED);
  });

  it("keeps a query parameter named __proto__ as plain data", async () => {
    const read = await readEndpointRequest(new Request(`${URL_BASE}?__proto__=x&constructor=y`), "/");
    if (!read.ok) throw new Error("refused");
    expect(Object.getPrototypeOf(read.input.query)).toBe(Object.prototype);
    expect(Object.keys(read.input.query)).toEqual(["__proto__", "constructor"]);
    expect(JSON.parse(JSON.stringify(read.input.query))).toEqual(JSON.parse('{"__proto__":"x","constructor":"y"}'));
  });

  it("refuses with 413, not as the agent's input, a body under the limit that JSON makes larger than a payload may be", async () => {
    const controls = "\u0001".repeat(200_000);
    const read = await readEndpointRequest(new Request(URL_BASE, { method: "POST", body: controls }), "/");
    expect(read).toMatchObject({ ok: false, status: 413, kind: "too_large" });
    expect(!read.ok && read.message).toContain(`the limit is ${MAX_PAYLOAD_BYTES} bytes`);
    const fits = await readEndpointRequest(new Request(URL_BASE, { method: "POST", body: "\u0001".repeat(1000) }), "/");
    expect(fits.ok).toBe(true);
  });

  it(`accepts a body of ${MAX_ENDPOINT_BODY_BYTES} bytes and refuses one more with 413, by length or as it streams`, async () => {
    const exact = await readEndpointRequest(
      new Request(URL_BASE, { method: "POST", body: "a".repeat(MAX_ENDPOINT_BODY_BYTES) }),
      "/",
    );
    expect(exact.ok && typeof exact.input.body === "string" && exact.input.body.length).toBe(MAX_ENDPOINT_BODY_BYTES);
    const over = await readEndpointRequest(
      new Request(URL_BASE, { method: "POST", body: "a".repeat(MAX_ENDPOINT_BODY_BYTES + 1) }),
      "/",
    );
    expect(over).toMatchObject({ ok: false, status: 413 });
    expect(!over.ok && over.message).toContain(`larger than ${MAX_ENDPOINT_BODY_BYTES} bytes`);
    expect((await readEndpointRequest(chunked(MAX_ENDPOINT_BODY_BYTES), "/")).ok).toBe(true);
    expect(await readEndpointRequest(chunked(MAX_ENDPOINT_BODY_BYTES + 1), "/")).toMatchObject({ ok: false });
  });
});
