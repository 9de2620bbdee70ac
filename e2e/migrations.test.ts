/**
 * A workspace written by an older Workshop comes up to date with all its data: the schema's migrations
 * run when its Durable Object starts. The fixture is the schema from before versions were counted,
 * when a run record was one `runs` row (later Workshops lost those records; migration 2 moves them).
 */

import { readdirSync, readFileSync, statSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { startWorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";

function sqliteFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sqliteFiles(path);
    return name.endsWith(".sqlite") ? [path] : [];
  });
}

/** Replaces the workspace's own tables with the fixture's (the runtime's internal tables stay). */
function writeFixture(file: string, workspaceId: string): void {
  const db = new DatabaseSync(file);
  try {
    const ours = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
      )
      .all() as { name: string }[];
    for (const { name } of ours) db.exec(`DROP TABLE "${name}"`);
    const sql = readFileSync(new URL("./fixtures/workspace-v0.sql", import.meta.url), "utf8");
    db.exec(sql.replace(":workspace_id", `'${workspaceId}'`));
  } finally {
    db.close();
  }
}

describe("schema migrations", () => {
  it("opens a workspace stored by the schema before versions and finds all its data", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "workshop-migrations-"));
    try {
      const first = await startWorkshopServer({ dataDir });
      const boot = createRpcClient({ url: first.url });
      const { token, workspaceId } = await boot.createWorkspace();
      boot[Symbol.dispose]();
      await first.stop();

      const workspaces = sqliteFiles(dataDir).filter(
        (file) => file.includes("WorkspaceStore") && !file.endsWith("metadata.sqlite"),
      );
      expect(workspaces).toHaveLength(1);
      writeFixture(workspaces[0] as string, workspaceId);

      const second = await startWorkshopServer({ dataDir });
      try {
        using client = createRpcClient({ url: second.url, token });
        const session = client.getSession();
        const drafts = await session.listDrafts();
        expect(drafts).toMatchObject([{ id: "dOldDraft0000000000001", name: "old-echo", version: 3 }]);
        expect(await session.listAgents()).toMatchObject([{ agentId: "aOldAgent0000000000001", name: "old-echo" }]);

        const record = await session.getRun("rOldRun000000000000001");
        expect(record.payload).toEqual({ input: "then" });
        expect(record.outcome).toMatchObject({ status: "ok", result: "Old echo: then" });
        expect(record.events.map((event) => event.type)).toEqual(["log", "end"]);
        expect(await session.listRuns(10)).toMatchObject([{ runId: "rOldRun000000000000001" }]);

        expect(await session.listErrors()).toMatchObject([{ name: "TypeError", count: 2 }]);
        // Usage was counted from the data the old schema held.
        expect((await session.usage()).usedBytes).toBeGreaterThan(0);

        // The old agent still runs, and the workspace takes new data in the new tables.
        expect(await client.getAgent("old-echo").run({ input: "now" })).toBe("Old echo: now");
        const outcome = await session.runDraft("dOldDraft0000000000001", { input: "again" });
        expect(outcome).toMatchObject({ status: "ok", result: "Old echo: again" });
        expect((await session.listRuns(10)).length).toBe(3); // the old record, the agent call, the draft run
        // The invocation log's columns were filled in from the old summary: a draft run, over RPC.
        expect((await session.listRuns(10, { via: "rpc" })).length).toBe(3);
        expect(await session.listRuns(10, { agent: "old-echo" })).toMatchObject([
          { source: { kind: "agent", agentId: "aOldAgent0000000000001" } },
        ]);

        // Tables added by later steps work too: an API key limited to the old agent.
        const { key } = await session.createKey({ name: "old", scope: "call", agents: ["old-echo"] });
        using keyClient = createRpcClient({ url: second.url, token: key });
        expect(await keyClient.getAgent("old-echo").run({ input: "keyed" })).toBe("Old echo: keyed");
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
