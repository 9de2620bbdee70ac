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

  it("types env.secrets with exactly the granted names, each optional, and names header grants on fetch", () => {
    const types = gadgetEnvTypes({
      secrets: ["GITHUB_TOKEN", "OTHER"],
      fetch: { hosts: ["api.github.com"], headers: { "api.github.com": { Authorization: "Bearer {{HIDDEN}}" } } },
    });
    expect(types).toMatch(/secrets: \{\s*readonly GITHUB_TOKEN\?: string;\s*readonly OTHER\?: string;\s*\};/);
    expect(types).not.toContain("HIDDEN");
    expect(types).toContain("The Workshop adds Authorization for api.github.com");
    expect(gadgetEnvTypes({ kv: true })).not.toContain("secrets");
    expect(gadgetEnvTypes({ secrets: [] })).toMatch(/secrets: \{\s*\};/);
  });

  it("types env.catalog.get from the published agents when the catalog is granted", () => {
    const agents = [{ name: "quotes", description: "", inputSchema: { type: "object" } }];
    expect(gadgetEnvTypes({ catalog: true }, agents)).toMatch(
      /interface GadgetAgents \{\n.*\n {2}quotes: GadgetAgent</,
    );
    expect(gadgetEnvTypes({ catalog: true })).toMatch(/interface GadgetAgents \{\n\}/);
    expect(gadgetEnvTypes({ kv: true }, agents)).not.toContain("quotes");
  });
});
