import type { ApiKeyInfo } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { keyRows } from "./key-rows.ts";

const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);
const key = (fields: Partial<ApiKeyInfo>): ApiKeyInfo => ({
  keyId: "k1",
  name: "claude-desktop",
  scope: "call",
  agents: null,
  createdAt: NOW - 5 * 60_000,
  lastUsedAt: null,
  ...fields,
});

describe("keyRows", () => {
  it("words each key: scope, agents, when made and last used", () => {
    expect(keyRows([key({})], new Map(), NOW)).toEqual([
      {
        keyId: "k1",
        name: "claude-desktop",
        scope: "call: list and run published agents",
        agents: "all agents",
        created: "5 min ago",
        lastUsed: "never used",
      },
    ]);
    const [full] = keyRows(
      [key({ scope: "full", agents: ["a1", "gone"], createdAt: Date.UTC(2026, 0, 2), lastUsedAt: NOW - 60_000 })],
      new Map([["a1", "weather"]]),
      NOW,
    );
    expect(full).toMatchObject({
      scope: "full: everything but managing keys",
      agents: "weather, gone",
      created: "2026-01-02",
      lastUsed: "used 1 min ago",
    });
  });

  it("lists the newest key first", () => {
    const rows = keyRows(
      [key({ keyId: "old", createdAt: NOW - 9000 }), key({ keyId: "new", createdAt: NOW - 10 })],
      new Map(),
      NOW,
    );
    expect(rows.map((row) => row.keyId)).toEqual(["new", "old"]);
  });
});
