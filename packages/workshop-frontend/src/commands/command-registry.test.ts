import { describe, expect, it, vi } from "vitest";
import { CommandRegistry } from "./command-registry.ts";

describe("CommandRegistry", () => {
  it("runs a registered command, and nothing once it is removed", () => {
    const registry = new CommandRegistry();
    const run = vi.fn();
    const remove = registry.register("run", { kind: "run", run });
    expect(registry.invoke("run")).toBe(true);
    remove();
    expect(registry.invoke("run")).toBe(false);
    expect(run).toHaveBeenCalledOnce();
  });

  it("lists only what can run now, in the table's order", () => {
    const registry = new CommandRegistry();
    registry.register("publish", { kind: "run", run: () => {} });
    registry.register("run", { kind: "run", run: () => {} });
    expect(registry.availableCommands().map((command) => command.id)).toEqual(["run", "publish"]);
  });

  it("lets the latest registration win and uncovers the earlier one when it goes", () => {
    const registry = new CommandRegistry();
    const first = vi.fn();
    const second = vi.fn();
    registry.register("run-tests", { kind: "run", run: first });
    const removeSecond = registry.register("run-tests", { kind: "run", run: second });
    registry.invoke("run-tests");
    removeSecond();
    registry.invoke("run-tests");
    expect([first.mock.calls.length, second.mock.calls.length]).toEqual([1, 1]);
  });

  it("does not invoke a picking command without its choice, and tells listeners of each change", () => {
    const registry = new CommandRegistry();
    const listener = vi.fn();
    registry.subscribe(listener);
    const pick = vi.fn();
    const remove = registry.register("switch-draft", { kind: "pick", placeholder: "Draft", choices: () => [], pick });
    expect(registry.invoke("switch-draft")).toBe(false);
    remove();
    expect(pick).not.toHaveBeenCalled();
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
