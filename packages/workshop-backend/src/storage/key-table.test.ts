import { MAX_API_KEYS_PER_WORKSPACE } from "@gadgets/workshop-shared/limits";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { apiKeyHash, newApiKey, randomId } from "./ids.ts";
import { KeyTable, minuteOf } from "./key-table.ts";
import { type SqliteStorage, workspaceStorage } from "./testing/sqlite-storage.ts";

const MINUTE = 60_000;
const T0 = 1_700_000_000_000;

describe("KeyTable", () => {
  let storage: SqliteStorage;
  let keys: KeyTable;

  beforeEach(() => {
    storage = workspaceStorage();
    keys = new KeyTable(storage.sql);
  });
  afterEach(() => storage.close());

  it("makes a key, finds it by its hash and by its id, and lists it without its hash", () => {
    const made = keys.create("hash-1", { name: "claude", scope: "call", agents: ["a1", "a2"] }, T0);
    expect(made).toEqual({
      status: "created",
      info: {
        keyId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
        name: "claude",
        scope: "call",
        agents: ["a1", "a2"],
        createdAt: T0,
        lastUsedAt: null,
      },
    });
    if (made.status !== "created") return;
    expect(keys.list()).toEqual([made.info]);
    expect(JSON.stringify(keys.list())).not.toContain("hash-1");
    expect(keys.use("hash-1", T0 + 5)).toMatchObject({ keyId: made.info.keyId, scope: "call", agents: ["a1", "a2"] });
    expect(keys.useById(made.info.keyId, T0 + 5)?.name).toBe("claude");
    expect(keys.use("hash-2", T0)).toBeUndefined();
    expect(keys.useById(randomId(), T0)).toBeUndefined();
  });

  it("keeps null agents as all agents", () => {
    keys.create("h", { name: "backend", scope: "full", agents: null }, T0);
    expect(keys.use("h", T0)).toMatchObject({ scope: "full", agents: null });
  });

  it("records the last use to the minute, and writes it only when the minute changed", () => {
    const made = keys.create("h", { name: "k", scope: "call", agents: null }, T0);
    if (made.status !== "created") throw new Error("not created");
    const at = T0 + 7_123;
    expect(keys.use("h", at)?.lastUsedAt).toBe(minuteOf(at));
    expect(minuteOf(at) % MINUTE).toBe(0);
    // Later in the same minute: the row keeps its value.
    expect(keys.use("h", minuteOf(at) + 59_999)?.lastUsedAt).toBe(minuteOf(at));
    expect(keys.useById(made.info.keyId, minuteOf(at) + MINUTE)?.lastUsedAt).toBe(minuteOf(at) + MINUTE);
    expect(keys.list()[0]?.lastUsedAt).toBe(minuteOf(at) + MINUTE);
  });

  it("refuses a revoked key at once, and says whether there was one to revoke", () => {
    const made = keys.create("h", { name: "k", scope: "call", agents: null }, T0);
    if (made.status !== "created") throw new Error("not created");
    expect(keys.revoke(made.info.keyId)).toBe(true);
    expect(keys.use("h", T0)).toBeUndefined();
    expect(keys.useById(made.info.keyId, T0)).toBeUndefined();
    expect(keys.list()).toEqual([]);
    expect(keys.revoke(made.info.keyId)).toBe(false);
  });

  it(`keeps ${MAX_API_KEYS_PER_WORKSPACE} keys and refuses one more, until one is revoked`, () => {
    for (let i = 0; i < MAX_API_KEYS_PER_WORKSPACE; i++)
      expect(keys.create(`h${i}`, { name: `k${i}`, scope: "call", agents: null }, T0 + i).status).toBe("created");
    const refused = keys.create("one-more", { name: "extra", scope: "call", agents: null }, T0);
    expect(refused).toEqual({
      status: "refused",
      code: "LIMIT_REACHED",
      message: expect.stringContaining(`already has ${MAX_API_KEYS_PER_WORKSPACE} API keys, the limit`),
    });
    expect(keys.list()).toHaveLength(MAX_API_KEYS_PER_WORKSPACE);
    const [oldest] = keys.list();
    expect(oldest?.name).toBe("k0");
    keys.revoke(oldest?.keyId ?? "");
    expect(keys.create("one-more", { name: "extra", scope: "call", agents: null }, T0).status).toBe("created");
  });
});

describe("API keys and their hashes", () => {
  it("names the workspace in the key and keeps 256 random bits after it", async () => {
    const workspaceId = randomId();
    const key = newApiKey(workspaceId);
    expect(key).toMatch(/^gk_[A-Za-z0-9_-]{65}$/);
    expect(key.slice(3, 25)).toBe(workspaceId);
    expect(newApiKey(workspaceId)).not.toBe(key);
    const hash = await apiKeyHash(key);
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await apiKeyHash(key)).toBe(hash);
    expect(hash).not.toContain(key.slice(25));
  });
});
