import { describe, expect, it } from "vitest";
import { gadgetEnvTypes } from "./gadget-types.ts";

describe("gadgetEnvTypes", () => {
  it("declares on env exactly what was granted", () => {
    const none = gadgetEnvTypes({});
    expect(none).toMatch(/interface GadgetEnv \{\s*\}/);
    const all = gadgetEnvTypes({ kv: true, fetch: { hosts: ["api.example.com"] }, catalog: true });
    expect(all).toContain("kv: GadgetKv;");
    expect(all).toContain("fetch(input: string | URL | Request");
    expect(all).toContain("api.example.com");
    expect(all).toContain("catalog: GadgetCatalog;");
    const kvOnly = gadgetEnvTypes({ kv: true });
    expect(kvOnly).toContain("kv: GadgetKv;");
    expect(kvOnly).not.toContain("fetch(");
    expect(kvOnly).not.toContain("catalog:");
  });
});
