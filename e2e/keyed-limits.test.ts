/**
 * Limits are keyed by client: one client's misses (unknown tokens, share ids, page loads) never refuse
 * another client's valid request. Each test makes more misses than the old server-wide limiters (600 a
 * minute) allowed, then checks that a valid client is still served.
 */

import { Agent } from "node:http";
import {
  createRpcClient,
  MAX_FAILED_SESSIONS_PER_CONNECTION,
  MAX_WORKSPACES_PER_CONNECTION,
  MISSES_PER_CLIENT_PER_MINUTE,
  type WorkshopClient,
} from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gadgetFiles, httpGet, newWorkspace } from "./abuse-helpers.ts";
import { ECHO_SOURCE, workshopUrl } from "./helpers.ts";

/** Connections that each make their full allowance of misses: 32 × 20 = 640, past the old global 600. */
const GUESSERS = 32;
const unknownToken = (i: number) => `gw_${String(i).padStart(43, "Z")}`;
const unknownId = (i: number) => `${String(i).padStart(22, "Q")}`;

describe("keyed miss limits", () => {
  let owner: WorkshopClient & { token: string };
  let shareId: string;
  beforeAll(async () => {
    owner = await newWorkspace(workshopUrl());
    const session = owner.getSession();
    const draft = await session.createDraft({ files: gadgetFiles("keyed", ECHO_SOURCE) });
    shareId = (await session.shareDraft(draft.id, { input: "hi" })).shareId;
  });
  afterAll(() => owner?.[Symbol.dispose]());

  it("refuses the 21st unknown token of a connection, not the 20th, with a message that says why", async () => {
    using client = createRpcClient({ url: workshopUrl() });
    for (let i = 0; i < MAX_FAILED_SESSIONS_PER_CONNECTION; i++)
      await expect(client.api.getSession(unknownToken(i)).listDrafts()).rejects.toThrow(/Unknown workspace token/);
    await expect(client.api.getSession(unknownToken(99)).listDrafts()).rejects.toThrow(
      /Too many lookups of tokens or links that do not exist came from this client/,
    );
  });

  it("counts unknown tokens sent all at once: a burst gets no more lookups than its client's budget", async () => {
    using client = createRpcClient({ url: workshopUrl() });
    const over = 10;
    const answers = await Promise.allSettled(
      Array.from({ length: MISSES_PER_CLIENT_PER_MINUTE + over }, (_, i) =>
        client.api.getSession(unknownToken(200 + i)).listDrafts(),
      ),
    );
    const reasons = answers.map((answer) => (answer.status === "rejected" ? String(answer.reason) : "served"));
    expect(reasons.filter((reason) => /Unknown workspace token/.test(reason)).length).toBe(
      MISSES_PER_CLIENT_PER_MINUTE,
    );
    expect(reasons.filter((reason) => /Too many lookups of tokens or links/.test(reason)).length).toBe(over);
  });

  it("serves a valid token and a valid share after 640 unknown tokens and 640 unknown share ids from other clients", async () => {
    await Promise.all(
      Array.from({ length: GUESSERS }, async (_, g) => {
        using guesser = createRpcClient({ url: workshopUrl() });
        await Promise.all(
          Array.from({ length: MAX_FAILED_SESSIONS_PER_CONNECTION }, (_, i) =>
            guesser.api
              .getSession(unknownToken(g * 100 + i))
              .listDrafts()
              .catch(() => undefined),
          ),
        );
        using shareGuesser = createRpcClient({ url: workshopUrl() });
        await Promise.all(
          Array.from({ length: MAX_FAILED_SESSIONS_PER_CONNECTION }, (_, i) =>
            shareGuesser.api
              .openShare(unknownId(g * 100 + i))
              .snapshot()
              .catch(() => undefined),
          ),
        );
      }),
    );
    using valid = createRpcClient({ url: workshopUrl(), token: owner.token });
    expect((await valid.getSession().listDrafts()).length).toBe(1);
    using visitor = createRpcClient({ url: workshopUrl() });
    expect((await visitor.api.openShare(shareId).snapshot()).name).toBe("keyed");
    expect((await visitor.api.openShare(shareId).run({ input: "x" })).status).toBe("ok");
  });

  it("answers 404 to a client's 120th page miss and 429 to its 121st, while other clients' pages load", async () => {
    const noisy = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < MISSES_PER_CLIENT_PER_MINUTE; i++)
        expect((await httpGet(`${workshopUrl()}/s/${unknownId(5000 + i)}`, { agent: noisy })).status).toBe(404);
      expect((await httpGet(`${workshopUrl()}/r/${unknownId(9999)}`, { agent: noisy })).status).toBe(429);
      expect((await httpGet(`${workshopUrl()}/embed/${unknownId(9998)}`, { agent: noisy })).status).toBe(429);
      // 500 more misses over fresh connections, as a flood of clients would make them.
      for (let i = 0; i < 500; i++) await httpGet(`${workshopUrl()}/s/${unknownId(6000 + i)}`, { agent: false });
      for (const path of [`/s/${shareId}`, `/embed/${shareId}`]) {
        const page = await httpGet(`${workshopUrl()}${path}`, { agent: false });
        expect(page.status, path).toBe(200);
      }
    } finally {
      noisy.destroy();
    }
  });

  it("creates 20 workspaces on a connection and refuses the 21st, while another connection creates on", async () => {
    using greedy = createRpcClient({ url: workshopUrl() });
    for (let i = 0; i < MAX_WORKSPACES_PER_CONNECTION; i++) await greedy.createWorkspace();
    await expect(greedy.createWorkspace()).rejects.toThrow(/already created 20 workspaces, the limit/);
    using other = createRpcClient({ url: workshopUrl() });
    await expect(other.createWorkspace()).resolves.toHaveProperty("token");
  });
});
