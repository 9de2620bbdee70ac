import { createRpcClient, type RunEvent } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { connectNewWorkspace, eventually, gadget, workshopUrl } from "./helpers.ts";

const SLOW = `export default { async run() { console.log("started"); await new Promise((r) => setTimeout(r, 1500)); return "finished"; } };`;

describe("cancelling a shared run", () => {
  it("lets the visitor who started a run stop it, and nobody else", async () => {
    const owner = await connectNewWorkspace();
    using _owner = owner.client;
    const session = owner.client.getSession();
    const draft = await session.createDraft({ files: gadget(SLOW, { name: "slow" }) });
    const { shareId } = await session.shareDraft(draft.id, null);

    using visitor = createRpcClient({ url: workshopUrl() });
    using other = createRpcClient({ url: workshopUrl() });
    const share = visitor.api.openShare(shareId);
    const otherShare = other.api.openShare(shareId);

    let announce: (runId: string) => void = () => {};
    const started = new Promise<string>((resolve) => {
      announce = resolve;
    });
    const outcome = share.run(null, (event: RunEvent) => {
      if (event.type === "log") announce(event.runId);
    });
    const runId = await started;
    // Another visitor, even with the run's id, cannot stop it.
    expect(await otherShare.cancel(runId)).toBe(false);
    await expect(otherShare.cancel("not an id")).rejects.toThrow(/run id/);
    expect(await share.cancel(runId)).toBe(true);
    expect(await outcome).toMatchObject({ status: "error", kind: "cancelled" });
    // Nothing left to cancel.
    expect(await share.cancel(runId)).toBe(false);
  });

  it("reports a workspace's failures with the gadget's name and version, for the Problems view", async () => {
    const owner = await connectNewWorkspace();
    using _owner = owner.client;
    const session = owner.client.getSession();
    const draft = await session.createDraft({
      files: gadget(`export default { async run() { throw new Error("broken on purpose"); } };`, { name: "breaks" }),
    });
    const outcome = await session.runDraft(draft.id, null);
    // Reports are written after the run answers.
    expect(await eventually(async () => (await session.listErrors()).length > 0)).toBe(true);
    const [group] = await session.listErrors();
    expect(group?.lastContext).toMatchObject({
      gadget: "breaks",
      version: "1",
      source: `draft:${draft.id}`,
      runId: outcome.runId,
    });
  });
});
