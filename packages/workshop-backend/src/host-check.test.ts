import { describe, expect, it } from "vitest";
import { isHostAllowed } from "./host-check.ts";

describe("isHostAllowed", () => {
  it("answers loopback names locally, with or without a port", () => {
    for (const host of ["127.0.0.1:8787", "localhost:8787", "localhost", "[::1]:8787", "app.localhost", "127.1.2.3"])
      expect(isHostAllowed(host, "localhost", undefined), host).toBe(true);
  });

  it("refuses a DNS-rebound name, and a missing Host, when running locally", () => {
    for (const host of ["evil.test:8787", "evil.test", "127.0.0.1.evil.test", "localhost.evil.test", ""])
      expect(isHostAllowed(host, "localhost", undefined), host).toBe(false);
    expect(isHostAllowed(undefined, "localhost", undefined)).toBe(false);
  });

  it("answers names given with --allow-host or as an allowed origin", () => {
    expect(isHostAllowed("workshop.test:443", "localhost,workshop.test", undefined)).toBe(true);
    expect(isHostAllowed("Docs.Example.com", "localhost", "https://docs.example.com")).toBe(true);
    expect(isHostAllowed("other.example.com", "localhost", "https://docs.example.com")).toBe(false);
  });

  it("checks nothing when deployed (no ALLOWED_HOSTS): the platform routes by host", () => {
    expect(isHostAllowed("gadgets.example.com", undefined, undefined)).toBe(true);
  });
});
