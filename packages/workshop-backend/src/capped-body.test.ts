import { describe, expect, it } from "vitest";
import { readCappedBody, readRequestBody } from "./capped-body.ts";

/** A response whose body sends one chunk and then nothing more, never ending; `cancelled` says when it was given up. */
function stalled() {
  let cancelled: unknown = "not cancelled";
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array([1, 2, 3]));
    },
    cancel(reason) {
      cancelled = reason;
    },
  });
  return { response: new Response(body), cancelled: () => cancelled };
}

describe("readCappedBody", () => {
  it("reads a body whole within the limit, and gives up one past it", async () => {
    expect(await readCappedBody(new Response("abc"), 3)).toEqual(new TextEncoder().encode("abc"));
    expect(await readCappedBody(new Response("abcd"), 3)).toBeUndefined();
  });

  it("stops reading when its signal aborts: the body is cancelled and the read rejects, never with a part", async () => {
    const { response, cancelled } = stalled();
    const deadline = new AbortController();
    const read = readCappedBody(response, 1000, deadline.signal);
    deadline.abort(new Error("too slow"));
    await expect(read).rejects.toThrow("too slow");
    expect(cancelled()).toBeInstanceOf(Error);
  });
});

describe("readRequestBody", () => {
  it("answers the bytes, too_large past the limit, and too_slow for a body not whole within its time", async () => {
    const post = (body: BodyInit) => new Request("http://x/", { method: "POST", body });
    expect(await readRequestBody(post("abc"), 3, 1000)).toEqual({ ok: true, bytes: new TextEncoder().encode("abc") });
    expect(await readRequestBody(post("abcd"), 3, 1000)).toEqual({ ok: false, reason: "too_large" });
    const { response, cancelled } = stalled();
    const slow = new Request("http://x/", { method: "POST", body: response.body, duplex: "half" } as RequestInit);
    expect(await readRequestBody(slow, 1000, 20)).toEqual({ ok: false, reason: "too_slow", ms: 20 });
    expect(cancelled()).not.toBe("not cancelled");
  });
});
