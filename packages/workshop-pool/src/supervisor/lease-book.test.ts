import type { LeaseListener } from "../protocol.ts";
import { describe, expect, it } from "vitest";
import { LeaseBook } from "./lease-book.ts";

function listener(revoked: string[] = []): LeaseListener {
  return {
    events() {},
    dropped() {},
    eventsSent() {},
    stopped() {},
    revoked: (leaseId) => {
      revoked.push(leaseId);
    },
  };
}

describe("LeaseBook", () => {
  it("hands out 128-bit lease ids and finds a lease's listener only on its own runner", () => {
    const book = new LeaseBook<string>({ graceMs: 1000, maxEnded: 10 });
    const held = listener();
    const leaseId = book.grant("runner-a", held);
    expect(leaseId).toMatch(/^[0-9a-f]{32}$/);
    expect(book.listener(leaseId, "runner-a")).toBe(held);
    expect(book.listener(leaseId, "runner-b")).toBeUndefined();
    expect(book.listener("unknown", "runner-a")).toBeUndefined();
  });

  it("hands a holder its held lease again, and a new one once that lease has ended", () => {
    const book = new LeaseBook<string>({ graceMs: 1000, maxEnded: 10 });
    const held = listener();
    const first = book.grant("runner-a", held);
    expect(book.grant("runner-a", held)).toBe(first);
    expect(book.grant("runner-b", held)).not.toBe(first);
    book.end(first);
    const second = book.grant("runner-a", held);
    expect(second).not.toBe(first);
  });

  it("keeps an ended lease for its grace period, then forgets it", () => {
    let now = 0;
    const book = new LeaseBook<string>({ graceMs: 1000, maxEnded: 10, now: () => now });
    const held = listener();
    const first = book.grant("runner-a", held);
    book.end(first);
    expect(book.listener(first, "runner-a")).toBe(held);
    now = 1500;
    book.end(book.grant("runner-a", listener()));
    expect(book.listener(first, "runner-a")).toBeUndefined();
  });

  it("revokes every lease on a runner, telling each holder, and no other", () => {
    const told: string[] = [];
    const book = new LeaseBook<string>({ graceMs: 1000, maxEnded: 10 });
    const a1 = book.grant("runner-a", listener(told));
    const a2 = book.grant("runner-a", listener(told));
    const b = book.grant("runner-b", listener(told));
    book.revokeAll("runner-a");
    expect(told.sort()).toEqual([a1, a2].sort());
    book.revokeAll("runner-a");
    expect(told).toHaveLength(2);
    expect(book.listener(b, "runner-b")).toBeDefined();
  });

  it("keeps at most maxEnded ended leases", () => {
    const book = new LeaseBook<string>({ graceMs: 60_000, maxEnded: 3 });
    const ids = Array.from({ length: 5 }, () => book.grant("runner-a", listener()));
    for (const id of ids) book.end(id);
    expect(ids.filter((id) => book.listener(id, "runner-a") !== undefined)).toHaveLength(3);
  });
});
