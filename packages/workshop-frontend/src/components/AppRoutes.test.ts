import { describe, expect, it } from "vitest";
import { routeOf } from "./AppRoutes.tsx";

describe("routeOf", () => {
  it("maps paths to pages", () => {
    expect(routeOf("/")).toEqual({ page: "ide" });
    expect(routeOf("/s/abc_DEF-123")).toEqual({ page: "share", id: "abc_DEF-123" });
    expect(routeOf("/r/abc/")).toEqual({ page: "record", id: "abc" });
    expect(routeOf("/s/")).toEqual({ page: "not-found" });
    expect(routeOf("/s/a/b")).toEqual({ page: "not-found" });
    expect(routeOf("/admin")).toEqual({ page: "not-found" });
    // A malformed escape names no link: not found, rather than a page that fails before it renders.
    expect(routeOf("/s/%")).toEqual({ page: "not-found" });
    expect(routeOf("/r/%E0%A4%A")).toEqual({ page: "not-found" });
    expect(routeOf("/s/not%20an%20id")).toEqual({ page: "share", id: "not an id" });
  });
});
