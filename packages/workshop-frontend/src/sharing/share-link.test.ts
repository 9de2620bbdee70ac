import { describe, expect, it, vi } from "vitest";
import { shareLink } from "./share-link.ts";

describe("shareLink", () => {
  it("shows the full link and copies it", async () => {
    const copy = vi.fn(async () => {});
    expect(await shareLink(async () => "/s/abc", { origin: "https://w.example", copy })).toEqual({
      tone: "info",
      text: "Link:",
      link: "https://w.example/s/abc",
    });
    expect(copy).toHaveBeenCalledWith("https://w.example/s/abc");
  });

  it("still shows the link when the clipboard refuses, or there is none", async () => {
    const refused = async () => {
      throw new DOMException("Document is not focused.", "NotAllowedError");
    };
    const shown = { tone: "info", text: "Link:", link: "o/r/1" };
    expect(await shareLink(async () => "/r/1", { origin: "o", copy: refused })).toEqual(shown);
    expect(await shareLink(async () => "/r/1", { origin: "o" })).toEqual(shown);
  });

  it("says why when the link could not be made", async () => {
    const copy = vi.fn(async () => {});
    const failed = shareLink(
      async () => {
        throw new Error("The payload is not valid JSON: Unexpected token");
      },
      { origin: "o", copy },
    );
    expect(await failed).toEqual({ tone: "error", text: "The payload is not valid JSON: Unexpected token" });
    expect(copy).not.toHaveBeenCalled();
  });
});
