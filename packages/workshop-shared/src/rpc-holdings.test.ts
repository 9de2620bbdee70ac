import { describe, expect, it } from "vitest";
import { RpcHoldings } from "./rpc-holdings.ts";

const push = '["push",["pipeline",0,["ping"],[]]]';

/** Holdings over a table the test keeps itself: `held` is what the session would count. */
function holdingsOver(maxHeld: number) {
  const table = { held: 2, counts: 0 };
  const holdings = new RpcHoldings({ maxHeld, maxQueued: 10 }, () => {
    table.counts++;
    return table.held;
  });
  const receive = (message: string) => {
    const admission = holdings.admit(message);
    if (admission.ok && message.startsWith('["push",')) table.held++;
    if (admission.ok && message.startsWith('["release",')) table.held--;
    return admission;
  };
  return { holdings, table, receive };
}

describe("RpcHoldings", () => {
  it("admits pushes up to the limit and refuses the one past it", () => {
    const { table, receive } = holdingsOver(10);
    for (let i = 0; i < 8; i++) expect(receive(push).ok).toBe(true);
    expect(table.held).toBe(10);
    const refused = receive(push);
    expect(refused).toEqual({ ok: false, message: expect.stringContaining("limit of 10") });
  });

  it("asks the session only when its bound would pass the limit", () => {
    const { table, receive } = holdingsOver(1000);
    const asked = table.counts;
    for (let i = 0; i < 500; i++) {
      receive(push);
      receive(`["release",${i + 1},1]`);
    }
    expect(table.counts).toBe(asked);
    expect(table.held).toBe(2);
  });

  it("counts stubs in received and sent messages, and starts again from the truth when the bound is passed", () => {
    const { holdings, table, receive } = holdingsOver(10);
    // Eight stubs in one message: eight imports, one push.
    const stubs = Array.from({ length: 8 }, (_, i) => `["export",-${i + 1}]`).join(",");
    expect(receive(`["push",["pipeline",0,["run"],[${stubs}]]]`).ok).toBe(false);
    holdings.sent('["resolve",1,["export",-1]]');
    // The session freed what the bound could not see: the truth lets the next push in.
    table.held = 2;
    expect(receive(push).ok).toBe(true);
  });

  it("takes off only releases that surely free an entry", () => {
    const { holdings, table } = holdingsOver(4);
    holdings.admit(push);
    holdings.admit(push);
    table.held = 4;
    // A release of nothing, or of a stub this end sent, frees nothing for sure.
    holdings.admit('["release",3,0]');
    holdings.admit('["release",-1,1]');
    expect(holdings.admit(push).ok).toBe(false);
  });

  it("refuses a queue of unread messages past its limit", () => {
    const { holdings } = holdingsOver(10);
    expect(holdings.admitQueue(10).ok).toBe(true);
    expect(holdings.admitQueue(11)).toEqual({ ok: false, message: expect.stringContaining("more than 10 messages") });
  });
});
