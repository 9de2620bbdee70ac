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
    expect(registryUrlProblem("http://10.0.0.1/", true)).toMatch(/private network address/);
  });

  it("refuses https to loopback unless local fetches are allowed", () => {
    expect(registryUrlProblem("https://localhost/", false)).toMatch(/on this machine/);
    expect(registryUrlProblem("https://localhost/", true)).toBeUndefined();
  });

  it("counts every spelling of this machine as local: 0.0.0.0, [::], IPv4-mapped, a trailing dot", () => {
    for (const url of [
      "https://0.0.0.0/",
      "https://[::]/",
      "https://[::ffff:127.0.0.1]/",
      "https://localhost./",
      "https://127.1/",
      "https://0x7f000001/",
    ]) {
      expect(registryUrlProblem(url, false)).toMatch(/on this machine/);
      expect(registryUrlProblem(url, true)).toBeUndefined();
    }
  });

  it("refuses private and link-local address literals (cloud metadata among them), even with local fetches", () => {
    for (const url of [
      "https://169.254.169.254/latest/meta-data/",
      "https://[::ffff:169.254.169.254]/",
      "https://10.1.2.3/",
      "https://172.16.0.1/",
      "https://192.168.1.1/",
      "https://100.64.0.1/",
      "https://[fd00::1]/",
      "https://[fe80::1]/",
    ]) {
      expect(registryUrlProblem(url, true)).toMatch(/private network address/);
    }
    expect(registryUrlProblem("https://172.32.0.1/", false)).toBeUndefined();
    expect(registryUrlProblem("https://100.128.0.1/", false)).toBeUndefined();
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
