import { afterEach, describe, expect, it, vi } from "vitest";
import { within } from "./within.ts";

describe("within", () => {
  afterEach(() => vi.useRealTimers());

  it("answers with the work's value when it settles in time, and leaves no timer behind", async () => {
    vi.useFakeTimers();
    await expect(within(Promise.resolve(7), 100)).resolves.toBe(7);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("answers undefined once the time is up", async () => {
    vi.useFakeTimers();
    const answer = within(new Promise<number>(() => {}), 100);
    await vi.advanceTimersByTimeAsync(100);
    await expect(answer).resolves.toBeUndefined();
  });
});
