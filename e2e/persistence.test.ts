import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { ECHO_SOURCE, gadget } from "./helpers.ts";

describe("persistence", () => {
  it("keeps workspaces, drafts, agents and run records across a server restart", { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "workshop-restart-"));
    try {
      let server = await startWorkshopServer({ dataDir });
      let token: string;
      let draftId: string;
      let agentId: string;
      let runId: string;
      {
        using bootstrap = createRpcClient({ url: server.url });
        ({ token } = await bootstrap.createWorkspace());
        using client = createRpcClient({ url: server.url, token });
        const session = client.getSession();
        const draft = await session.createDraft({ files: gadget(ECHO_SOURCE, { name: "durable" }) });
        await session.saveDraft(draft.id, { baseVersion: 1, files: gadget(ECHO_SOURCE, { name: "durable-2" }) });
        draftId = draft.id;
        ({ agentId } = await session.publishDraft(draft.id));
        ({ runId } = await session.runDraft(draft.id, { input: "before" }));
        // Records are written after the outcome; a following call on the same session sees them.
        await session.getRun(runId);
      }
      await server.stop();

      server = await startWorkshopServer({ dataDir });
      try {
        using client = createRpcClient({ url: server.url, token });
        const session = client.getSession();
        expect(await session.openDraft(draftId)).toMatchObject({ name: "durable-2", version: 2 });
        expect(await client.getAgent(agentId).run({ input: "after" })).toBe("Echo: after");
        expect(await session.getRun(runId)).toMatchObject({ status: "ok", outcome: { result: "Echo: before" } });
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
