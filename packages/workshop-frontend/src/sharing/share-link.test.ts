import { describe, expect, it, vi } from "vitest";
import { shareLink } from "./share-link.ts";

describe("shareLink", () => {
  it("shows the full link and copies it", async () => {
    const copy = vi.fn(async () => {});
    expect(await shareLink(async () => "/s/abc", { origin: "https://w.example", copy })).toBe(
      "Link: https://w.example/s/abc",
    );
    expect(copy).toHaveBeenCalledWith("https://w.example/s/abc");
  });

  it("still shows the link when the clipboard refuses, or there is none", async () => {
    const refused = async () => {
      throw new DOMException("Document is not focused.", "NotAllowedError");
    };
    expect(await shareLink(async () => "/r/1", { origin: "o", copy: refused })).toBe("Link: o/r/1");
    expect(await shareLink(async () => "/r/1", { origin: "o" })).toBe("Link: o/r/1");
  });

  it("says why when the link could not be made", async () => {
    const copy = vi.fn(async () => {});
    const failed = shareLink(
      async () => {
        throw new Error("The payload is not valid JSON: Unexpected token");
      },
      { origin: "o", copy },
    );
    expect(await failed).toBe("The payload is not valid JSON: Unexpected token");
    expect(copy).not.toHaveBeenCalled();
  });
});
