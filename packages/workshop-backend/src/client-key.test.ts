import { describe, expect, it } from "vitest";
import { addressKey, clientKey } from "./client-key.ts";

const request = (headers: Record<string, string>, cf?: Record<string, unknown>) =>
  Object.assign(new Request("http://127.0.0.1/api", { headers }), cf ? { cf } : {});

describe("clientKey", () => {
  it("keys a local request on the peer workerd reports, ignoring a forged CF-Connecting-IP", () => {
    expect(clientKey(request({ "CF-Connecting-IP": "203.0.113.9" }, { clientIp: "127.0.0.1:40000" }), {})).toBe(
      "peer:127.0.0.1:40000",
    );
  });

  it("keys a request through Cloudflare's edge on CF-Connecting-IP", () => {
    expect(clientKey(request({ "CF-Connecting-IP": "203.0.113.9" }), {})).toBe("ip:203.0.113.9");
  });

  it("keys an IPv6 client by its /64, however the address is written, and IPv4 inside IPv6 by the IPv4 address", () => {
    for (const written of ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::9", "2001:DB8:0001:0002::", "2001:db8:1:2:ffff::1"])
      expect(addressKey(written)).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(clientKey(request({ "CF-Connecting-IP": "2001:db8:1:2:aaaa::7" }), {})).toBe("ip:2001:db8:1:2::/64");
  });

  it("behind a trusted reverse proxy, keys a local request on the address X-Forwarded-For ends in", () => {
    const proxied = (forwarded: string) => request({ "X-Forwarded-For": forwarded }, { clientIp: "127.0.0.1:40000" });
    const trusted = { TRUST_PROXY: "1" };
    // The proxy appends the address it saw: anything before it is the client's own claim.
    expect(clientKey(proxied("10.9.9.9, 203.0.113.9"), trusted)).toBe("ip:203.0.113.9");
    expect(clientKey(proxied("2001:db8:1:2::5"), trusted)).toBe("ip:2001:db8:1:2::/64");
    // Not told of a proxy, the header is anyone's to forge.
    expect(clientKey(proxied("203.0.113.9"), {})).toBe("peer:127.0.0.1:40000");
    expect(clientKey(request({}, { clientIp: "127.0.0.1:40000" }), trusted)).toBe("peer:127.0.0.1:40000");
  });

  it("falls back to one shared key when nothing says who the client is", () => {
    expect(clientKey(request({}), {})).toBe("unknown");
  });
});
