import { describe, expect, it } from "vitest";
import { Subscribable } from "./subscribable.ts";

class Counter extends Subscribable {
  value = 0;
  increment(): void {
    this.value++;
    this.notify();
  }
}

describe("Subscribable", () => {
  it("tells every listener of a change until it unsubscribes, even one that unsubscribes while notified", () => {
    const counter = new Counter();
    const heard: string[] = [];
    const offA = counter.subscribe(() => {
      heard.push(`a${counter.value}`);
      offA();
    });
    const offB = counter.subscribe(() => heard.push(`b${counter.value}`));
    counter.increment();
    counter.increment();
    offB();
    counter.increment();
    expect(heard).toEqual(["a1", "b1", "b2"]);
  });
});
