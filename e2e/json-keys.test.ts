/**
 * JSON in, JSON out: keys that name `Object.prototype` members (`constructor`, `toString`, `__proto__`,
 * `toJSON`, …) are ordinary JSON keys and must survive every hop — client → Worker → runner → isolate
 * and back, in payloads, results, console values, records, shares, nested catalog calls and kv.
 */

import type { JsonValue } from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Connected, connectNewWorkspace, eventCollector, gadget, workshopUrl } from "./helpers.ts";
import { createRpcClient } from "@gadgets/workshop-shared";

/** Parsed, so `__proto__` is an own key as in any JSON document. */
const tricky = (): JsonValue =>
  JSON.parse(
    '{"constructor":"x","toString":1,"hasOwnProperty":2,"__proto__":3,"toJSON":4,"valueOf":{"__proto__":{"isPrototypeOf":[5]}},"a":5}',
  ) as JsonValue;

const TRICKY_KEYS = ["constructor", "toString", "hasOwnProperty", "__proto__", "toJSON", "valueOf", "a"];

/** Reports what the isolate received, logs it, and returns it. */
const INSPECT_SOURCE = `export default {
  async run(payload: Record<string, unknown>) {
    console.log(payload);
    return {
      keys: Object.keys(payload),
      plainPrototype: Object.getPrototypeOf(payload) === Object.prototype,
      ownProto: Object.hasOwn(payload, "__proto__"),
      echo: payload,
    };
  },
};
`;

function expectIntact(report: unknown): void {
  const { keys, plainPrototype, ownProto, echo } = report as Record<string, unknown>;
  expect(keys).toEqual(TRICKY_KEYS);
  expect(plainPrototype).toBe(true);
  expect(ownProto).toBe(true);
  expect(JSON.stringify(echo)).toBe(JSON.stringify(tricky()));
}

let ws: Connected;
beforeAll(async () => {
  ws = await connectNewWorkspace();
});
afterAll(() => ws.client[Symbol.dispose]());

describe("keys named like Object.prototype members", () => {
  it("reach the gadget, come back in the result and the console, and stay in the run record", async () => {
    const session = ws.client.getSession();
    const draft = await session.createDraft({ files: gadget(INSPECT_SOURCE) });
    const events = eventCollector();

    const outcome = await session.runDraft(draft.id, tricky(), events.listener);

    expect(outcome.status).toBe("ok");
    if (outcome.status !== "ok") return;
    expectIntact(outcome.result);
    const [logged] = events.ofType("log");
    const loggedKeys = JSON.stringify(logged?.values);
    for (const key of TRICKY_KEYS) expect(loggedKeys).toContain(`"${key}"`);

    const record = await session.getRun(outcome.runId);
    expect(JSON.stringify(record.payload)).toBe(JSON.stringify(tricky()));
    expectIntact(record.outcome.status === "ok" ? record.outcome.result : undefined);
  });

  it("survive a published agent, called directly and through another agent's catalog", async () => {
    const session = ws.client.getSession();
    const inner = await session.createDraft({ files: gadget(INSPECT_SOURCE, { name: "inspect-keys" }) });
    await session.publishDraft(inner.id);
    const outer = await session.createDraft({
      files: gadget(
        `export default { async run(payload: unknown, env: any) { return env.catalog.get("inspect-keys").run(payload); } };`,
        { name: "forward-keys", grants: { catalog: true } },
      ),
    });
    const { agentId } = await session.publishDraft(outer.id);

    expectIntact(await ws.client.getAgent("inspect-keys").run(tricky()));
    expectIntact(await ws.client.getAgent(agentId).run(tricky()));
  });

  it("survive a share snapshot and an anonymous run of it", async () => {
    const session = ws.client.getSession();
    const draft = await session.createDraft({ files: gadget(INSPECT_SOURCE) });
    const { shareId } = await session.shareDraft(draft.id, tricky());

    using visitor = createRpcClient({ url: workshopUrl() });
    const share = visitor.api.openShare(shareId);
    const snapshot = await share.snapshot();
    expect(JSON.stringify(snapshot.payload)).toBe(JSON.stringify(tricky()));
    const outcome = await share.run(snapshot.payload);
    expect(outcome.status).toBe("ok");
    if (outcome.status === "ok") expectIntact(outcome.result);
  });

  it("survive kv as JSON text", async () => {
    const session = ws.client.getSession();
    const draft = await session.createDraft({
      files: gadget(
        `export default { async run(payload: unknown, env: any) {
          await env.kv.put("doc", JSON.stringify(payload));
          return JSON.parse(await env.kv.get("doc"));
        } };`,
        { grants: { kv: true } },
      ),
    });
    const outcome = await session.runDraft(draft.id, tricky());
    expect(outcome.status).toBe("ok");
    if (outcome.status === "ok") expect(JSON.stringify(outcome.result)).toBe(JSON.stringify(tricky()));
  });
});
