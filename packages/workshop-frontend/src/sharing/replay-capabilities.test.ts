import type { GadgetFile, RunTrace } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { replayNotice, unreplayableCapabilities } from "./replay-capabilities.ts";

const files = (grants: unknown): GadgetFile[] => [
  { path: "gadget.json", content: JSON.stringify({ name: "g", entry: "index.ts", grants }) },
  { path: "index.ts", content: "export default { run() {} };" },
];
const trace = (...kinds: string[]) =>
  ({ spans: kinds.map((kind, i) => ({ spanId: String(i), kind })) }) as unknown as RunTrace;

describe("unreplayableCapabilities", () => {
  it("names what the run used or was granted", () => {
    expect(unreplayableCapabilities({ files: files({ kv: true }), trace: trace("run", "fetch") })).toEqual([
      "fetch",
      "kv",
    ]);
    expect(
      unreplayableCapabilities({
        files: files({ catalog: true, secrets: ["TOKEN"], fetch: { hosts: ["a.example"] } }),
      }),
    ).toEqual(["fetch (a.example)", "catalog", "secrets"]);
  });

  it("names the hosts fetch was granted, in the manifest's order", () => {
    const granted = files({ fetch: { hosts: ["api.example.com", "cdn.example.com"] } });
    expect(unreplayableCapabilities({ files: granted, trace: trace("run", "fetch") })).toEqual([
      "fetch (api.example.com, cdn.example.com)",
    ]);
    expect(replayNotice(unreplayableCapabilities({ files: granted }))).toMatch(
      /^This run used fetch \(api\.example\.com, cdn\.example\.com\)\. Run again runs without capabilities/,
    );
  });

  it("says just fetch when the trace shows it but no hosts can be read from the manifest", () => {
    const unreadable: GadgetFile[] = [{ path: "gadget.json", content: "{" }];
    expect(unreplayableCapabilities({ files: unreadable, trace: trace("run", "fetch") })).toEqual(["fetch"]);
  });

  it("is empty for a gadget with no capabilities, which replays as it ran", () => {
    expect(unreplayableCapabilities({ files: files({}), trace: trace("run", "build") })).toEqual([]);
    expect(replayNotice([])).toBeUndefined();
  });

  it("says why Run again will fail and what to do instead", () => {
    expect(replayNotice(["fetch", "kv"])).toMatch(/^This run used fetch, kv\. .*fork it/);
  });
});
