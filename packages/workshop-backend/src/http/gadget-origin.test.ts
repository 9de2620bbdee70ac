import { describe, expect, it } from "vitest";
import { endpointUrl, requestOrigin } from "./gadget-origin.ts";

const request = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

describe("requestOrigin", () => {
  it("locally, goes by the header workerd sets per socket, whatever the Host says", () => {
    const env = { LOCAL_SOCKETS: "1", GADGET_ORIGIN: "http://127.0.0.1:8788" };
    expect(requestOrigin(request("http://127.0.0.1:8787/h/x", { "workshop-socket": "endpoints" }), env)).toBe("gadget");
    expect(requestOrigin(request("http://127.0.0.1:8788/h/x", { "workshop-socket": "ide" }), env)).toBe("ide");
    expect(requestOrigin(request("http://127.0.0.1:8788/h/x"), env)).toBe("ide");
  });

  it("deployed, goes by the host the request was routed by, never by that header", () => {
    const env = { GADGET_ORIGIN: "https://gadgets.example.com" };
    expect(requestOrigin(request("https://gadgets.example.com/h/x"), env)).toBe("gadget");
    expect(requestOrigin(request("https://GADGETS.example.com/h/x"), env)).toBe("gadget");
    expect(requestOrigin(request("https://ide.example.com/h/x", { "workshop-socket": "endpoints" }), env)).toBe("ide");
    expect(requestOrigin(request("https://gadgets.example.com/h/x"), {})).toBe("ide");
  });
});

describe("endpointUrl", () => {
  it("builds the URL on the gadget origin, and none without one", () => {
    expect(endpointUrl({ GADGET_ORIGIN: "https://gadgets.example.com/" }, "hook")).toBe(
      "https://gadgets.example.com/h/hook",
    );
    expect(endpointUrl({}, "hook")).toBeUndefined();
    expect(endpointUrl({ GADGET_ORIGIN: "not a url" }, "hook")).toBeUndefined();
  });
});
