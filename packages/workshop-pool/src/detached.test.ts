import { describe, expect, it } from "vitest";
import { detached } from "./detached.ts";

describe("detached", () => {
  it("logs a failure of work nobody awaits: the 1st, 10th and 100th of each kind, with the count", async () => {
    const lines: string[] = [];
    const failing = () => Promise.reject(new Error("peer gone"));
    for (let i = 0; i < 100; i++) detached("telling the peer", failing(), (line) => lines.push(line));
    detached("something else", failing(), (line) => lines.push(line));
    detached("succeeding", Promise.resolve(1), (line) => lines.push(line));
    await new Promise((done) => setTimeout(done));
    expect(lines).toEqual([
      "telling the peer failed (1 so far): peer gone",
      "telling the peer failed (10 so far): peer gone",
      "telling the peer failed (100 so far): peer gone",
      "something else failed (1 so far): peer gone",
    ]);
  });
});
