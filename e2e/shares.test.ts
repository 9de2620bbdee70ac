import { ANONYMOUS_RUNS_PER_MINUTE, createRpcClient, MAX_SHARE_MISSES_PER_CONNECTION } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { connectNewWorkspace, ECHO_SOURCE, gadget, workshopUrl } from "./helpers.ts";

describe("share links", () => {
  it("opens an immutable snapshot without a workspace, runs it anonymously, and forks it", async () => {
    const owner = await connectNewWorkspace();
    using _owner = owner.client;
    const session = owner.client.getSession();
    const draft = await session.createDraft({
      files: gadget(ECHO_SOURCE, { name: "shared-echo", description: "Says it back." }),
    });
    const { shareId } = await session.shareDraft(draft.id, { input: "from the link" });
    expect(shareId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    await session.saveDraft(draft.id, {
      baseVersion: 1,
      files: gadget(ECHO_SOURCE.replace("Echo", "Changed"), { name: "shared-echo" }),
    });

    using visitor = createRpcClient({ url: workshopUrl() });
    const share = visitor.api.openShare(shareId);
    const snapshot = await share.snapshot();
    expect(snapshot).toMatchObject({
      shareId,
      name: "shared-echo",
      description: "Says it back.",
      payload: { input: "from the link" },
    });
    expect(snapshot.files).toEqual(draft.files);
    expect(await share.run(snapshot.payload)).toMatchObject({ status: "ok", result: "Echo: from the link" });
    // Edited files that are not files are a run refused as such, answered like any other outcome.
    for (const notFiles of [0, {}, true, "index.ts"])
      expect(await share.run(snapshot.payload, null, notFiles as never)).toMatchObject({
        status: "error",
        kind: "invalid",
        message: expect.stringMatching(/files/i),
      });

    const forker = await connectNewWorkspace();
    using _forker = forker.client;
    const fork = await forker.client.getSession().forkShare(shareId);
    expect(fork.files).toEqual(draft.files);
    expect(await forker.client.getSession().runDraft(fork.id, { input: "mine now" })).toMatchObject({
      status: "ok",
      result: "Echo: mine now",
    });
  });

  it("answers unknown and malformed ids alike, and refuses a connection that keeps guessing", async () => {
    using visitor = createRpcClient({ url: workshopUrl() });
    const unknown = await visitor.api
      .openShare("AAAAAAAAAAAAAAAAAAAAAA")
      .snapshot()
      .catch((error: Error) => error.message);
    const malformed = await visitor.api
      .openShare("../../etc/passwd")
      .snapshot()
      .catch((error: Error) => error.message);
    const record = await visitor.api
      .openRecord("AAAAAAAAAAAAAAAAAAAAAA")
      .record()
      .catch((error: Error) => error.message);
    expect(unknown).toBe("This link does not exist. Check that it was copied whole.");
    expect(malformed).toBe(unknown);
    expect(record).toBe(unknown);
    for (let i = 3; i < MAX_SHARE_MISSES_PER_CONNECTION; i++)
      await visitor.api
        .openShare(`guess${i}`)
        .snapshot()
        .catch(() => undefined);
    await expect(visitor.api.openShare("guess-more").snapshot()).rejects.toThrow(
      /Too many lookups of tokens or links that do not exist/,
    );
  });

  it("shares a run as an immutable record with its events, and runs it again", async () => {
    const owner = await connectNewWorkspace();
    using _owner = owner.client;
    const session = owner.client.getSession();
    const draft = await session.createDraft({
      files: gadget(`export default { async run(p: { n: number }) { console.log("n is", p.n); return p.n * 2; } };`, {
        name: "doubler",
      }),
    });
    const outcome = await session.runDraft(draft.id, { n: 21 });
    const { recordId } = await session.shareRun(outcome.runId);

    using visitor = createRpcClient({ url: workshopUrl() });
    const shared = visitor.api.openRecord(recordId);
    const record = await shared.record();
    expect(record).toMatchObject({
      recordId,
      name: "doubler",
      payload: { n: 21 },
      outcome: { status: "ok", result: 42 },
    });
    expect(record.events.filter((event) => event.type === "log")).toEqual([
      expect.objectContaining({
        values: [
          { t: "string", v: "n is" },
          { t: "number", v: 21 },
        ],
      }),
    ]);
    const events: string[] = [];
    expect(await shared.runAgain((event) => void events.push(event.type))).toMatchObject({ status: "ok", result: 42 });
    expect(events).toContain("log");
    // A share link is no key to the workspace: the run is still private there.
    await expect(visitor.api.openShare(recordId).snapshot()).rejects.toThrow(/does not exist/);
  });

  it("rate-limits anonymous runs per connection", async () => {
    const owner = await connectNewWorkspace();
    using _owner = owner.client;
    const draft = await owner.client.getSession().createDraft({ files: gadget(ECHO_SOURCE) });
    const { shareId } = await owner.client.getSession().shareDraft(draft.id, { input: "x" });
    using visitor = createRpcClient({ url: workshopUrl() });
    const share = visitor.api.openShare(shareId);
    for (let i = 0; i < ANONYMOUS_RUNS_PER_MINUTE; i++) expect((await share.run({ input: "x" })).status).toBe("ok");
    const refused = await share.run({ input: "x" });
    expect(refused).toMatchObject({ status: "error", kind: "busy" });
    expect(refused.status === "error" && refused.message).toContain("fork it into your workspace");
  });
});
