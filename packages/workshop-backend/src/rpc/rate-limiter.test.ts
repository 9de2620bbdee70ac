import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limiter.ts";

describe("RateLimiter", () => {
  it("allows N events per key in the window and refuses the N+1st", () => {
    let now = 0;
    const limiter = new RateLimiter(3, { now: () => now });
    for (let i = 0; i < 3; i++) expect(limiter.take("a")).toBe(true);
    expect(limiter.allows("a")).toBe(false);
    expect(limiter.take("a")).toBe(false);
    expect(limiter.count("a")).toBe(3);
    now = 60_000;
    expect(limiter.take("a")).toBe(true);
  });

  it("counts each key on its own: one key at its limit never refuses another", () => {
    const limiter = new RateLimiter(2, { now: () => 0 });
    limiter.take("greedy");
    limiter.take("greedy");
    expect(limiter.take("greedy")).toBe(false);
    expect(limiter.take("other")).toBe(true);
    expect(limiter.allows("third")).toBe(true);
  });

  it("gives back the newest event it counted, and only for that key", () => {
    let now = 0;
    const limiter = new RateLimiter(2, { now: () => now });
    limiter.take("a");
    now = 30_000;
    limiter.take("a");
    limiter.take("b");
    limiter.giveBack("a");
    expect(limiter.count("a")).toBe(1);
    expect(limiter.count("b")).toBe(1);
    // The event left is the older one: it leaves the window first.
    now = 60_000;
    expect(limiter.count("a")).toBe(0);
    limiter.giveBack("a");
    limiter.giveBack("never");
    expect(limiter.take("a")).toBe(true);
  });

  it("keeps its own window length", () => {
    let now = 0;
    const limiter = new RateLimiter(1, { windowMs: 3_600_000, now: () => now });
    expect(limiter.take()).toBe(true);
    now = 3_599_999;
    expect(limiter.take()).toBe(false);
    now = 3_600_000;
    expect(limiter.take()).toBe(true);
  });
});
