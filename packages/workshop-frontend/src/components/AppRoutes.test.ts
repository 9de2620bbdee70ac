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
  });
});
