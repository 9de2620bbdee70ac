import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectNewWorkspace, ECHO_SOURCE, gadget, workshopUrl } from "./helpers.ts";

describe("pages and files", () => {
  it("answers /assets/ and any folder or missing file under it with the not-found page, never a listing", async () => {
    for (const path of ["/assets/", "/assets", "/assets/sub/", "/assets/gone-1a2b3c.js"]) {
      const response = await fetch(`${workshopUrl()}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type"), path).toContain("text/html");
      expect(await response.text(), path).not.toContain('"type":"file"');
    }
    // The app's own files are still served.
    const built = readdirSync(join(import.meta.dirname, "../apps/workshop/dist/assets")).find((name) =>
      name.endsWith(".js"),
    );
    const file = await fetch(`${workshopUrl()}/assets/${built}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("text/javascript");
  });

  it("gives /s/ and /r/ pages their link previews", async () => {
    const owner = await connectNewWorkspace();
    using _owner = owner.client;
    const session = owner.client.getSession();
    const draft = await session.createDraft({
      files: gadget(ECHO_SOURCE, { name: "previewed", description: "Says it back." }),
    });
    const { shareId } = await session.shareDraft(draft.id, { input: "x" });
    const outcome = await session.runDraft(draft.id, { input: "x" });
    const { recordId } = await session.shareRun(outcome.runId);
    const share = await (await fetch(`${workshopUrl()}/s/${shareId}`)).text();
    expect(share).toContain("<title>previewed — Gadget Workshop</title>");
    expect(share).toContain('content="Says it back."');
    const record = await fetch(`${workshopUrl()}/r/${recordId}`);
    expect(record.status).toBe(200);
    expect(await record.text()).toContain("<title>Run of previewed — Gadget Workshop</title>");
  });
});
