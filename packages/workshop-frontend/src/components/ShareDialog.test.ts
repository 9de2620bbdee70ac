import { describe, expect, it } from "vitest";
import { hostOrigin } from "./ShareDialog.tsx";

describe("hostOrigin", () => {
  it("keeps only the origin of an http(s) address, and says what is wrong otherwise", () => {
    expect(hostOrigin("")).toEqual({ ok: true });
    expect(hostOrigin("  https://blog.example.com/a/post?x=1 ")).toEqual({
      ok: true,
      value: "https://blog.example.com",
    });
    expect(hostOrigin("http://127.0.0.1:3000/")).toEqual({ ok: true, value: "http://127.0.0.1:3000" });
    for (const bad of ["javascript:alert(1)", "blog.example.com", "file:///etc/passwd", "data:text/html,hi"]) {
      const checked = hostOrigin(bad);
      expect(checked.ok).toBe(false);
      if (!checked.ok) expect(checked.error).toContain("https://blog.example.com");
    }
  });
});
