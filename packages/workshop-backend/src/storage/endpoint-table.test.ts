import { MAX_ENDPOINT_NAMES_PER_WORKSPACE } from "@gadgets/workshop-shared/limits";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EndpointTable } from "./endpoint-table.ts";
import { type SqliteStorage, workspaceStorage } from "./testing/sqlite-storage.ts";

describe("EndpointTable", () => {
  let storage: SqliteStorage;
  let endpoints: EndpointTable;

  beforeEach(() => {
    storage = workspaceStorage();
    endpoints = new EndpointTable(storage.sql);
    for (const [id, name] of [
      ["agent-a", "alpha"],
      ["agent-b", "beta"],
    ])
      storage.sql.exec(
        "INSERT INTO agents (id, draft_id, name, description, latest_version, updated_at) VALUES (?, ?, ?, '', 1, 0)",
        id,
        `draft-${id}`,
        name,
      );
  });
  afterEach(() => storage.close());

  it("gives an agent one unguessable endpoint, the same across versions, and turns it off without triggers.http", () => {
    const first = endpoints.activate("agent-a", {}, 1);
    expect(first).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(endpoints.activate("agent-a", { response: "full" }, 2)).toBe(first);
    expect(endpoints.resolve(first ?? "")).toEqual({ endpoint: first, agentId: "agent-a", response: "full" });
    expect(endpoints.activate("agent-a", undefined, 3)).toBeUndefined();
    expect(endpoints.resolve(first ?? "")).toBeUndefined();
    expect(endpoints.list()).toEqual([]);
    // Back on: the same id again.
    expect(endpoints.activate("agent-a", {}, 4)).toBe(first);
  });

  it("answers only on the endpoint the latest version declares: a name replaces the id, and back", () => {
    const id = endpoints.activate("agent-a", {}, 1) ?? "";
    expect(endpoints.activate("agent-a", { name: "github-hook" }, 2)).toBe("github-hook");
    expect(endpoints.resolve(id)).toBeUndefined();
    expect(endpoints.resolve("github-hook")).toMatchObject({ agentId: "agent-a", response: "json" });
    expect(endpoints.activate("agent-a", {}, 3)).toBe(id);
    expect(endpoints.resolve("github-hook")).toBeUndefined();
    expect(endpoints.list()).toEqual([{ endpoint: id, agentId: "agent-a", response: "json" }]);
  });

  it("refuses a name another agent's latest version answers on, naming that agent, and lets a dropped one be taken over", () => {
    endpoints.activate("agent-a", { name: "shared" }, 1);
    expect(endpoints.nameRefusal("shared", "agent-a")).toBeUndefined();
    expect(endpoints.nameRefusal("shared", "agent-b")).toEqual({ reason: "agent", agentName: "alpha" });
    expect(endpoints.nameRefusal("shared", undefined)).toEqual({ reason: "agent", agentName: "alpha" });
    endpoints.activate("agent-a", undefined, 2);
    expect(endpoints.nameRefusal("shared", "agent-b")).toBeUndefined();
    expect(endpoints.activate("agent-b", { name: "shared" }, 3)).toBe("shared");
    expect(endpoints.resolve("shared")).toMatchObject({ agentId: "agent-b" });
  });

  it("never lets a name be another agent's unguessable id", () => {
    const id = endpoints.activate("agent-a", {}, 1) ?? "";
    endpoints.activate("agent-a", undefined, 2);
    expect(endpoints.nameRefusal(id, "agent-b")).toEqual({ reason: "id" });
  });

  it(`holds ${MAX_ENDPOINT_NAMES_PER_WORKSPACE} names per workspace and refuses one more, but not one it holds`, () => {
    for (let i = 0; i < MAX_ENDPOINT_NAMES_PER_WORKSPACE; i++) {
      expect(endpoints.nameRefusal(`name-${i}`, "agent-a")).toBeUndefined();
      endpoints.activate("agent-a", { name: `name-${i}` }, i);
    }
    expect(endpoints.nameRefusal("one-more", "agent-a")).toEqual({
      reason: "too-many",
      held: MAX_ENDPOINT_NAMES_PER_WORKSPACE,
    });
    expect(endpoints.nameRefusal("name-0", "agent-a")).toBeUndefined();
  });
});
