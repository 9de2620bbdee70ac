import { describe, expect, it } from "vitest";
import { apiWebSocketUrl } from "./client.ts";

describe("apiWebSocketUrl", () => {
  it("turns an origin into the session URL", () => {
    expect(apiWebSocketUrl("http://127.0.0.1:8787")).toBe("ws://127.0.0.1:8787/api");
    expect(apiWebSocketUrl("https://workshop.example.com/")).toBe("wss://workshop.example.com/api");
    expect(apiWebSocketUrl("https://example.com/base?x=1#y")).toBe("wss://example.com/base/api");
    expect(apiWebSocketUrl("ws://localhost:1/api")).toBe("ws://localhost:1/api");
  });

  it("explains a bad URL", () => {
    expect(() => apiWebSocketUrl("not a url")).toThrow(/Invalid Workshop URL/);
    expect(() => apiWebSocketUrl("ftp://x")).toThrow(/use http\(s\):\/\//);
  });
});
