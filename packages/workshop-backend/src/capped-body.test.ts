import { describe, expect, it } from "vitest";
import { readCappedBody } from "./capped-body.ts";

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
