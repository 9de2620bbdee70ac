/** Errors thrown over RPC carry a stable `code` that clients branch on, whatever their wording. */

import { createRpcClient, type ErrorCode, errorCode, SHARES_PER_MINUTE } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { connectNewWorkspace, ECHO_SOURCE, gadget, workshopUrl } from "./helpers.ts";

async function codeOf(call: () => Promise<unknown>): Promise<ErrorCode | undefined> {
  try {
    await call();
  } catch (error) {
    return errorCode(error);
  }
  throw new Error("the call did not fail");
}

describe("error codes across the wire", () => {
  it("names a malformed token, an unknown token, a missing agent and a missing link", async () => {
    using malformed = createRpcClient({ url: workshopUrl(), token: "not-a-token" });
    expect(await codeOf(() => malformed.getSession().listDrafts())).toBe("INVALID_TOKEN");

    using unknown = createRpcClient({ url: workshopUrl(), token: `gw_${"B".repeat(43)}` });
    expect(await codeOf(() => unknown.getSession().listDrafts())).toBe("UNKNOWN_TOKEN");

    const { client } = await connectNewWorkspace();
    using _client = client;
    expect(await codeOf(() => client.getAgent("no-such-agent").run(null))).toBe("AGENT_NOT_FOUND");
    expect(await codeOf(() => client.api.openShare("A".repeat(22)).snapshot())).toBe("NOT_FOUND");
  });

  it("keeps the codes of errors thrown in the workspace's storage, with the message alone", async () => {
    const { client } = await connectNewWorkspace();
    using _client = client;
    const session = client.getSession();
    const missing = "A".repeat(22);
    let thrown: unknown;
    try {
      await session.openDraft(missing);
    } catch (error) {
      thrown = error;
    }
    expect(errorCode(thrown)).toBe("NOT_FOUND");
    expect((thrown as Error).message).toMatch(new RegExp(`^Draft ${missing} was not found in this workspace`));
    expect(await codeOf(() => session.getRun(missing))).toBe("NOT_FOUND");
  });

  it("names a session past its shares a minute as rate limited", async () => {
    const { client } = await connectNewWorkspace();
    using _client = client;
    const session = client.getSession();
    const draft = await session.createDraft({ files: gadget(ECHO_SOURCE) });
    for (let i = 0; i < SHARES_PER_MINUTE; i++) await session.shareDraft(draft.id, { input: `${i}` });
    expect(await codeOf(() => session.shareDraft(draft.id, { input: "one more" }))).toBe("RATE_LIMITED");
  });
});
