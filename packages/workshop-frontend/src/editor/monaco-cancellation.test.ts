import { describe, expect, it } from "vitest";
import { ignoreMonacoCancellations, isMonacoCancellation } from "./monaco-cancellation.ts";

// Monaco's CancellationError: an Error whose name and message are both "Canceled".
const canceled = () => Object.assign(new Error("Canceled"), { name: "Canceled" });

describe("ignoreMonacoCancellations", () => {
  it("tells Monaco's cancellation apart from every other rejection", () => {
    expect(isMonacoCancellation(canceled())).toBe(true);
    expect(isMonacoCancellation(new Error("Canceled"))).toBe(false);
    expect(isMonacoCancellation(Object.assign(new Error("boom"), { name: "Canceled" }))).toBe(false);
    expect(isMonacoCancellation("Canceled")).toBe(false);
  });

  it("prevents only a cancellation's report, once however often it is installed", () => {
    type Listener = (event: { reason: unknown; preventDefault(): void }) => void;
    const listeners: Listener[] = [];
    const target = { addEventListener: (_type: string, listener: Listener) => void listeners.push(listener) };
    ignoreMonacoCancellations(target);
    ignoreMonacoCancellations(target);
    expect(listeners).toHaveLength(1);
    const fire = (reason: unknown) => {
      let prevented = false;
      listeners[0]?.({
        reason,
        preventDefault: () => {
          prevented = true;
        },
      });
      return prevented;
    };
    expect(fire(canceled())).toBe(true);
    expect(fire(new TypeError("x is undefined"))).toBe(false);
  });
});
