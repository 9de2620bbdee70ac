import { codedError } from "@gadgets/workshop-shared";
import { describe, expect, it, vi } from "vitest";
import { type PublishedVersion, publishWithTests } from "./publish-flow.ts";

const version: PublishedVersion = { name: "echo", version: 3, agentId: "a1" };
const refused = codedError("TESTS_FAILED", "Version 3 was not published: 1 of 2 test cases failed.");

describe("publishWithTests", () => {
  it("says which version was published, and its agent id", async () => {
    const confirm = vi.fn(() => true);
    expect(await publishWithTests(async () => version, confirm)).toBe("Published echo v3 — agent id a1");
    expect(
      await publishWithTests(async () => ({ ...version, endpointUrl: "http://127.0.0.1:8788/h/hook" }), confirm),
    ).toBe("Published echo v3 — agent id a1; its endpoint answers at http://127.0.0.1:8788/h/hook");
    expect(confirm).not.toHaveBeenCalled();
  });

  it("publishes a version with failing tests only when the person confirms, and says so", async () => {
    const publish = vi.fn(async (override: boolean) => {
      if (!override) throw refused;
      return version;
    });
    const confirm = vi.fn(() => true);
    expect(await publishWithTests(publish, confirm)).toBe("Published echo v3 — agent id a1 (tests overridden)");
    expect(confirm).toHaveBeenCalledWith(refused.message);
    expect(publish.mock.calls).toEqual([[false], [true]]);
  });

  it("shows the refusal when the person declines", async () => {
    const publish = vi.fn(async () => {
      throw refused;
    });
    expect(await publishWithTests(publish, () => false)).toBe(refused.message);
    expect(publish).toHaveBeenCalledOnce();
  });

  it("asks nothing for other errors", async () => {
    const confirm = vi.fn(() => true);
    const failed = publishWithTests(async () => {
      throw new Error("The connection is closed.");
    }, confirm);
    expect(await failed).toBe("The connection is closed.");
    expect(confirm).not.toHaveBeenCalled();
  });

  it("shows why publishing anyway failed too", async () => {
    const publish = async (override: boolean): Promise<PublishedVersion> => {
      throw override ? new Error("Storage is full.") : refused;
    };
    expect(await publishWithTests(publish, () => true)).toBe("Storage is full.");
  });
});
