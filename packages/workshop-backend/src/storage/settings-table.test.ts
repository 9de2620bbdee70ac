import { DEFAULT_RUN_TIMEOUT_MS } from "@gadgets/workshop-shared/limits";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SettingsTable } from "./settings-table.ts";
import { type SqliteStorage, workspaceStorage } from "./testing/sqlite-storage.ts";

describe("SettingsTable", () => {
  let storage: SqliteStorage;
  let settings: SettingsTable;

  beforeEach(() => {
    storage = workspaceStorage();
    settings = new SettingsTable(storage.sql);
  });
  afterEach(() => storage.close());

  it("is created once marked, and a second mark keeps the first", () => {
    expect(settings.isCreated()).toBe(false);
    settings.markCreated("w1");
    settings.markCreated("w2");
    expect(settings.isCreated()).toBe(true);
    const id = storage.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'workspace_id'").one().value;
    expect(id).toBe("w1");
  });

  it("runs with the defaults until changed, and changes only what it is given", () => {
    expect(settings.get()).toEqual({ runTimeoutMs: DEFAULT_RUN_TIMEOUT_MS, fetchHosts: null });
    expect(settings.update({ fetchHosts: ["example.com"] })).toEqual({
      runTimeoutMs: DEFAULT_RUN_TIMEOUT_MS,
      fetchHosts: ["example.com"],
    });
    expect(settings.update({ runTimeoutMs: 5000 })).toEqual({ runTimeoutMs: 5000, fetchHosts: ["example.com"] });
    expect(settings.update({ fetchHosts: null })).toEqual({ runTimeoutMs: 5000, fetchHosts: null });
  });
});
