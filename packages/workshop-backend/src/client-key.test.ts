import { describe, expect, it } from "vitest";
import { clientKey } from "./client-key.ts";

const request = (headers: Record<string, string>, cf?: Record<string, unknown>) =>
  Object.assign(new Request("http://127.0.0.1/api", { headers }), cf ? { cf } : {});

describe("clientKey", () => {
  it("keys a local request on the peer workerd reports, ignoring a forged CF-Connecting-IP", () => {
    expect(clientKey(request({ "CF-Connecting-IP": "203.0.113.9" }, { clientIp: "127.0.0.1:40000" }))).toBe(
      "peer:127.0.0.1:40000",
    );
  });

  it("keys a request through Cloudflare's edge on CF-Connecting-IP", () => {
    expect(clientKey(request({ "CF-Connecting-IP": "203.0.113.9" }))).toBe("ip:203.0.113.9");
  });

  it("falls back to one shared key when nothing says who the client is", () => {
    expect(clientKey(request({}))).toBe("unknown");
  });
});
