import { MAX_TOASTS, TOAST_INFO_MS } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { ToastStore, type ToastTimers } from "./toast-store.ts";

/** Timers a test moves by hand. */
function manualTimers() {
  const pending = new Map<number, { run: () => void; ms: number }>();
  let next = 0;
  const timers: ToastTimers = {
    set: (run, ms) => {
      pending.set(++next, { run, ms });
      return next;
    },
    clear: (handle) => pending.delete(handle as number),
  };
  const fire = () => {
    for (const [handle, timer] of [...pending]) {
      pending.delete(handle);
      timer.run();
    }
  };
  return { timers, pending, fire };
}

const texts = (store: ToastStore) => store.toasts.map((toast) => toast.text);

describe("ToastStore", () => {
  it("lets information go by itself after a while, and keeps errors until dismissed", () => {
    const clock = manualTimers();
    const store = new ToastStore(clock.timers);
    store.show({ tone: "info", text: "Saved as a test case" });
    const error = store.show({ tone: "error", text: "The payload is not JSON" });
    expect([...clock.pending.values()].map((timer) => timer.ms)).toEqual([TOAST_INFO_MS]);
    clock.fire();
    expect(texts(store)).toEqual(["The payload is not JSON"]);
    store.dismiss(error);
    expect(store.toasts).toEqual([]);
  });

  it("replaces information with newer information, and shows the same error once", () => {
    const clock = manualTimers();
    const store = new ToastStore(clock.timers);
    store.show({ tone: "info", text: "one" });
    store.show({ tone: "info", text: "two" });
    store.show({ tone: "error", text: "broken" });
    store.show({ tone: "error", text: "broken" });
    expect(texts(store)).toEqual(["two", "broken"]);
    expect(clock.pending.size).toBe(1);
  });

  it("keeps a notice with a link to copy until it is dismissed", () => {
    const clock = manualTimers();
    const store = new ToastStore(clock.timers);
    store.show({ tone: "info", text: "Link", link: "http://127.0.0.1/s/x" });
    clock.fire();
    expect(texts(store)).toEqual(["Link"]);
  });

  it(`shows at most ${MAX_TOASTS} at once, the oldest going first`, () => {
    const store = new ToastStore(manualTimers().timers);
    const errors = Array.from({ length: MAX_TOASTS + 1 }, (_, i) => `error ${i}`);
    for (const text of errors.slice(0, MAX_TOASTS)) store.show({ tone: "error", text });
    expect(texts(store)).toEqual(errors.slice(0, MAX_TOASTS));
    store.show({ tone: "error", text: errors[MAX_TOASTS] ?? "" });
    expect(texts(store)).toEqual(errors.slice(1));
  });

  it("tells listeners of each change, and ignores dismissing what is gone", () => {
    const store = new ToastStore(manualTimers().timers);
    let changes = 0;
    store.subscribe(() => changes++);
    const id = store.show({ tone: "error", text: "x" });
    store.dismiss(id);
    store.dismiss(id);
    expect(changes).toBe(2);
  });
});
