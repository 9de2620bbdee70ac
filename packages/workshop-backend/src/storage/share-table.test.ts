import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { previewOf } from "../share-preview.ts";
import { ShareTable } from "./share-table.ts";
import { type SqliteStorage, sqliteStorage } from "./testing/sqlite-storage.ts";

describe("ShareTable", () => {
  let storage: SqliteStorage;
  let table: ShareTable;

  beforeEach(() => {
    storage = sqliteStorage();
    table = new ShareTable(storage.sql);
  });
  afterEach(() => storage.close());

  it("answers an id never shared with nothing, and writes nothing for it", () => {
    expect(table.preview("record")).toBeUndefined();
    expect(table.get("record")).toBeUndefined();
    expect(storage.sql.exec("SELECT name FROM sqlite_master").toArray()).toEqual([]);
  });

  it("gives a share's preview without reading its value", () => {
    // A value that does not even parse: reading the preview never touches it.
    table.put("record", "{not json", previewOf("record", { name: "echo", description: "" }));
    expect(table.preview("record")).toEqual({
      title: "Run of echo — Gadget Workshop",
      description: "A shared run: its code, console and result.",
    });
    expect(table.preview("snapshot")).toBeUndefined();
    expect(table.get("record")).toBe("{not json");
    expect(() => table.put("record", "{}", previewOf("record", { name: "x", description: "" }))).toThrow(
      /cannot change/,
    );
  });

  it("makes the preview of a share stored before previews were kept once, and keeps it", () => {
    // The table as it was: no preview column.
    storage.sql.exec("CREATE TABLE share (kind TEXT NOT NULL, value TEXT NOT NULL, created_at INTEGER NOT NULL)");
    const value = JSON.stringify({ name: "old-echo", description: "Says it back.", files: [] });
    storage.sql.exec("INSERT INTO share (kind, value, created_at) VALUES ('snapshot', ?, 0)", value);
    const expected = { title: "old-echo — Gadget Workshop", description: "Says it back." };
    expect(table.preview("snapshot")).toEqual(expected);
    // Kept: a later read (even in a new object) takes it from its column, not from the value.
    storage.sql.exec("UPDATE share SET value = '{not json'");
    expect(new ShareTable(storage.sql).preview("snapshot")).toEqual(expected);
  });
});
