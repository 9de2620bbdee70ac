import { describe, expect, it } from "vitest";
import type { CapabilityCall, CapabilityHandler, CapabilityReply } from "../../executors/executor.ts";
import { buildEnv } from "./gadget-env.ts";

/** A capability channel that records each call and answers with the next reply given. */
function channel(...replies: CapabilityReply[]) {
  const calls: CapabilityCall[] = [];
  const handler: CapabilityHandler = {
    async call(call) {
      calls.push(call);
      return replies.shift() ?? { ok: true, value: null };
    },
  };
  return { calls, handler };
}

describe("buildEnv", () => {
  it("holds exactly the granted capabilities, frozen", () => {
    const { handler } = channel();
    expect(Object.keys(buildEnv({}, handler))).toEqual([]);
    expect(Object.keys(buildEnv(undefined, handler))).toEqual([]);
    const env = buildEnv({ kv: true, fetch: { hosts: ["example.com"] }, catalog: true }, handler);
    expect(Object.keys(env)).toEqual(["kv", "fetch", "catalog"]);
    expect(Object.isFrozen(env)).toBe(true);
    expect(Object.isFrozen(env.kv)).toBe(true);
    expect(Object.keys(buildEnv({ kv: true }, handler))).toEqual(["kv"]);
  });

  it("holds the granted secrets that are set as env.secrets, frozen, and no others", () => {
    const env = buildEnv({ secrets: ["TOKEN", "NOT_SET"] }, null, { TOKEN: "value-1234", OTHER: "not granted" });
    expect(Object.keys(env)).toEqual(["secrets"]);
    expect(env.secrets).toEqual({ TOKEN: "value-1234" });
    expect(Object.isFrozen(env.secrets)).toBe(true);
    expect(Object.hasOwn(env.secrets ?? {}, "NOT_SET")).toBe(false);
    // A shared run is given none: the grant still makes an empty env.secrets.
    expect(buildEnv({ secrets: ["TOKEN"] }, null, null).secrets).toEqual({});
    expect(Object.keys(buildEnv({ kv: true }, null, { TOKEN: "value-1234" }))).toEqual(["kv"]);
  });

  it("asks for kv operations with keys and values as strings, and answers with the reply's value", async () => {
    const { calls, handler } = channel({ ok: true, value: "stored" });
    const kv = buildEnv({ kv: true }, handler).kv;
    expect(await kv?.get(1)).toBe("stored");
    await kv?.put("k", 2);
    await kv?.delete("k");
    await kv?.list();
    await kv?.list("p/");
    expect(calls).toEqual([
      { capability: "kv", op: "get", key: "1" },
      { capability: "kv", op: "put", key: "k", value: "2" },
      { capability: "kv", op: "delete", key: "k" },
      { capability: "kv", op: "list", prefix: "" },
      { capability: "kv", op: "list", prefix: "p/" },
    ]);
  });

  it("throws the overseer's refusal into the gadget as an Error", async () => {
    const { handler } = channel({ ok: false, error: "kv is over quota" }, { ok: false } as unknown as CapabilityReply);
    const kv = buildEnv({ kv: true }, handler).kv;
    await expect(kv?.put("k", "v")).rejects.toThrow("kv is over quota");
    await expect(kv?.get("k")).rejects.toThrow("The capability call failed.");
  });

  it("sends a fetch as url, method, headers and body bytes, and builds the Response from the reply", async () => {
    const { calls, handler } = channel({
      ok: true,
      value: { status: 201, statusText: "Created", headers: [["x-a", "1"]], body: new TextEncoder().encode("made") },
    });
    const fetch = buildEnv({ fetch: { hosts: ["example.com"] } }, handler).fetch;
    const response = await fetch?.("https://example.com/p", { method: "POST", body: "hi", headers: { "x-b": "2" } });
    expect(calls).toEqual([
      {
        capability: "fetch",
        url: "https://example.com/p",
        method: "POST",
        headers: [
          ["content-type", "text/plain;charset=UTF-8"],
          ["x-b", "2"],
        ],
        body: new TextEncoder().encode("hi"),
      },
    ]);
    expect([response?.status, response?.statusText, response?.headers.get("x-a")]).toEqual([201, "Created", "1"]);
    expect(await response?.text()).toBe("made");
  });

  it("sends no body for a GET, and gives a 204 no body even when one came back", async () => {
    const { calls, handler } = channel({
      ok: true,
      value: { status: 204, statusText: "", headers: [], body: new Uint8Array([1]) },
    });
    const response = await buildEnv({ fetch: { hosts: ["example.com"] } }, handler).fetch?.("https://example.com/");
    expect(calls[0]).not.toHaveProperty("body");
    expect(response?.status).toBe(204);
    expect(response?.body).toBeNull();
  });

  it("runs catalog agents by reference, sending null for no payload", async () => {
    const { calls, handler } = channel({ ok: true, value: "Echo: hi" });
    const catalog = buildEnv({ catalog: true }, handler).catalog;
    expect(await catalog?.get("echo").run({ input: "hi" })).toBe("Echo: hi");
    await catalog?.get("echo@2").run();
    expect(calls).toEqual([
      { capability: "catalog", ref: "echo", payload: { input: "hi" } },
      { capability: "catalog", ref: "echo@2", payload: null },
    ]);
  });
});
