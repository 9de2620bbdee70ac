/**
 * The server-wide budget of anonymous runs sheds the heaviest connections first: once it is spent, a
 * connection's first runs of the minute still go, and only its runs past those are refused.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import {
  ANONYMOUS_RUNS_GUARANTEED_PER_MINUTE,
  ANONYMOUS_RUNS_PER_MINUTE,
  ANONYMOUS_RUNS_PER_MINUTE_GLOBAL,
  createRpcClient,
} from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gadgetFiles, newWorkspace } from "./abuse-helpers.ts";
import { ECHO_SOURCE } from "./helpers.ts";

describe("the server-wide budget of anonymous runs", () => {
  let server: WorkshopServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "workshop-anon-"));
    server = await startWorkshopServer({ dataDir, pool: false });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("once spent, still runs a connection's first 5 a minute and refuses its 6th", { timeout: 120_000 }, async () => {
    using owner = await newWorkspace(server.url);
    const draft = await owner.getSession().createDraft({ files: gadgetFiles("anon", ECHO_SOURCE) });
    const { shareId } = await owner.getSession().shareDraft(draft.id, { input: "x" });

    // Greedy connections spend the whole budget, each within its own per-connection limit. Runs past a
    // connection's first 5 count against the budget: exactly 300 of them go, the 301st is refused.
    let counted = 0;
    let refusedBy: string | undefined;
    for (let g = 0; g < 40 && refusedBy === undefined; g++) {
      using client = createRpcClient({ url: server.url });
      const share = client.api.openShare(shareId);
      for (let i = 0; i < ANONYMOUS_RUNS_PER_MINUTE && refusedBy === undefined; i++) {
        const outcome = await share.run({ input: "greedy" });
        if (outcome.status === "error") refusedBy = outcome.message;
        else if (i >= ANONYMOUS_RUNS_GUARANTEED_PER_MINUTE) counted++;
      }
    }
    expect(refusedBy).toMatch(/more than 300 times a minute on this server/);
    expect(counted).toBe(ANONYMOUS_RUNS_PER_MINUTE_GLOBAL);

    using visitor = createRpcClient({ url: server.url });
    const share = visitor.api.openShare(shareId);
    for (let i = 0; i < ANONYMOUS_RUNS_GUARANTEED_PER_MINUTE; i++)
      expect(await share.run({ input: "visitor" })).toMatchObject({ status: "ok", result: "Echo: visitor" });
    const refused = await share.run({ input: "visitor" });
    expect(refused).toMatchObject({ status: "error", kind: "busy" });
    expect(refused.status === "error" && refused.message).toMatch(/more than 300 times a minute on this server/);
  });
});
