import { describe, expect, it } from "vitest";
import { packumentUrl, registryBase, registryUrlProblem } from "./registry-url.ts";

describe("registryUrlProblem", () => {
  it("accepts https anywhere", () => {
    expect(registryUrlProblem("https://registry.npmjs.org/", false)).toBeUndefined();
    expect(registryUrlProblem("https://npm.example.com/path/", false)).toBeUndefined();
  });

  it("accepts plain http only to loopback, and only when local fetches are allowed", () => {
    expect(registryUrlProblem("http://127.0.0.1:4873/", true)).toBeUndefined();
    expect(registryUrlProblem("http://localhost:4873/", true)).toBeUndefined();
    expect(registryUrlProblem("http://[::1]:4873/", true)).toBeUndefined();
    expect(registryUrlProblem("http://127.0.0.1:4873/", false)).toMatch(/--allow-local-fetch/);
    expect(registryUrlProblem("http://registry.example.com/", true)).toMatch(/not an https URL/);
    expect(registryUrlProblem("http://10.0.0.1/", true)).toMatch(/not an https URL/);
  });

  it("refuses https to loopback unless local fetches are allowed", () => {
    expect(registryUrlProblem("https://localhost/", false)).toMatch(/on this machine/);
    expect(registryUrlProblem("https://localhost/", true)).toBeUndefined();
  });

  it("refuses credentials in the URL, other schemes and non-URLs", () => {
    expect(registryUrlProblem("https://user:pw@registry.example.com/", false)).toMatch(/user name or password/);
    expect(registryUrlProblem("file:///etc/passwd", true)).toMatch(/not an https URL/);
    expect(registryUrlProblem("registry.example.com", false)).toMatch(/is not a URL/);
  });
});

describe("registryBase and packumentUrl", () => {
  it("end the base in a slash and drop query and fragment", () => {
    expect(registryBase("https://npm.example.com/r?x=1#y", false)).toBe("https://npm.example.com/r/");
  });

  it("spell scoped names as @scope%2fname", () => {
    expect(packumentUrl("https://r.example/", "zod")).toBe("https://r.example/zod");
    expect(packumentUrl("https://r.example/", "@types/node")).toBe("https://r.example/@types%2fnode");
  });
});
