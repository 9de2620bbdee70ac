import { MAX_SECRETS_PER_WORKSPACE } from "@gadgets/workshop-shared/limits";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SecretTable } from "./secret-table.ts";
import { type SqliteStorage, workspaceStorage } from "./testing/sqlite-storage.ts";

const T0 = 1_700_000_000_000;
const sealed = (n: number) => ({ iv: `iv-${n}`, data: `data-${n}` });

describe("SecretTable", () => {
  let storage: SqliteStorage;
  let secrets: SecretTable;

  beforeEach(() => {
    storage = workspaceStorage();
    secrets = new SecretTable(storage.sql);
  });
  afterEach(() => storage.close());

  it("sets, lists (names and sizes only), reads and deletes secrets", () => {
    expect(secrets.set("B_TOKEN", sealed(1), 20, T0)).toEqual({
      status: "set",
      secret: { name: "B_TOKEN", bytes: 20, updatedAt: T0 },
    });
    secrets.set("A_TOKEN", sealed(2), 9, T0 + 1);
    expect(secrets.list()).toEqual([
      { name: "A_TOKEN", bytes: 9, updatedAt: T0 + 1 },
      { name: "B_TOKEN", bytes: 20, updatedAt: T0 },
    ]);
    expect(JSON.stringify(secrets.list())).not.toContain("data-");
    expect(secrets.read(["B_TOKEN", "MISSING"])).toEqual([{ name: "B_TOKEN", sealed: sealed(1) }]);
    expect(secrets.read([])).toEqual([]);
    expect(secrets.delete("B_TOKEN")).toBe(true);
    expect(secrets.delete("B_TOKEN")).toBe(false);
    expect(secrets.list().map((row) => row.name)).toEqual(["A_TOKEN"]);
  });

  it("replaces a secret in place: its value, size and time", () => {
    secrets.set("TOKEN", sealed(1), 10, T0);
    secrets.set("TOKEN", sealed(2), 12, T0 + 5);
    expect(secrets.list()).toEqual([{ name: "TOKEN", bytes: 12, updatedAt: T0 + 5 }]);
    expect(secrets.read(["TOKEN"])).toEqual([{ name: "TOKEN", sealed: sealed(2) }]);
  });

  it(`keeps ${MAX_SECRETS_PER_WORKSPACE} secrets and refuses one more, but still replaces one`, () => {
    for (let i = 0; i < MAX_SECRETS_PER_WORKSPACE; i++)
      expect(secrets.set(`S_${i}`, sealed(i), 8, T0).status).toBe("set");
    const refused = secrets.set("ONE_MORE", sealed(0), 8, T0);
    expect(refused).toEqual({
      status: "refused",
      message: expect.stringContaining(`already has ${MAX_SECRETS_PER_WORKSPACE} secrets, the limit`),
    });
    expect(secrets.set("S_0", sealed(9), 8, T0 + 1).status).toBe("set");
    expect(secrets.list()).toHaveLength(MAX_SECRETS_PER_WORKSPACE);
  });
});
