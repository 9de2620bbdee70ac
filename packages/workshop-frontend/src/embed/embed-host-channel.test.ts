import { describe, expect, it } from "vitest";
import { mayAnnounce, parentOrigin } from "./embed-host-channel.ts";

describe("parentOrigin", () => {
  it("is the first ancestor origin where the browser lists them, else the referrer's origin", () => {
    expect(parentOrigin(["https://blog.example", "https://top.example"], "https://other.example/x")).toBe(
      "https://blog.example",
    );
    expect(parentOrigin(undefined, "https://blog.example/post?id=1")).toBe("https://blog.example");
    expect(parentOrigin([], "https://blog.example/post")).toBe("https://blog.example");
  });

  it("is unknown without either, or with a referrer that is no URL", () => {
    expect(parentOrigin(undefined, "")).toBeUndefined();
    expect(parentOrigin([], "not a url")).toBeUndefined();
  });
});

describe("mayAnnounce", () => {
  it("announces to any parent without a named host, and to the named host's page", () => {
    expect(mayAnnounce(undefined, "https://anyone.example")).toBe(true);
    expect(mayAnnounce("https://blog.example", "https://blog.example")).toBe(true);
  });

  it("stays quiet towards a parent of another origin (the browser would refuse and log each message)", () => {
    expect(mayAnnounce("https://blog.example", "https://evil.example")).toBe(false);
    expect(mayAnnounce("https://blog.example", "null")).toBe(false);
  });

  it("announces when the parent's origin is unknown, so a host whose page withholds its referrer still connects", () => {
    expect(mayAnnounce("https://blog.example", undefined)).toBe(true);
  });
});
