import { describe, expect, it } from "vitest";
import { importSecretsKey, newSecretsKey, openSecret, sealSecret, secretsKeyProblem } from "./secret-crypto.ts";

describe("secret crypto", () => {
  it("seals and opens a value, with a fresh IV each time", async () => {
    const key = await importSecretsKey(newSecretsKey());
    const value = "ghp_exampleToken1234567890 ✓";
    const first = await sealSecret(key, "ws-1", "GITHUB_TOKEN", value);
    const second = await sealSecret(key, "ws-1", "GITHUB_TOKEN", value);
    expect(first.iv).not.toBe(second.iv);
    expect(first.data).not.toBe(second.data);
    expect(atob(first.iv)).toHaveLength(12);
    expect(JSON.stringify(first)).not.toContain("exampleToken");
    expect(await openSecret(key, "ws-1", "GITHUB_TOKEN", first)).toBe(value);
    expect(await openSecret(key, "ws-1", "GITHUB_TOKEN", second)).toBe(value);
  });

  it("does not open with another key, in another workspace, under another name, or tampered with", async () => {
    const key = await importSecretsKey(newSecretsKey());
    const other = await importSecretsKey(newSecretsKey());
    const sealed = await sealSecret(key, "ws-1", "TOKEN", "a secret value");
    await expect(openSecret(other, "ws-1", "TOKEN", sealed)).rejects.toThrow();
    await expect(openSecret(key, "ws-2", "TOKEN", sealed)).rejects.toThrow();
    await expect(openSecret(key, "ws-1", "OTHER", sealed)).rejects.toThrow();
    const bytes = Uint8Array.from(atob(sealed.data), (char) => char.charCodeAt(0));
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    const tampered = { ...sealed, data: btoa(String.fromCharCode(...bytes)) };
    await expect(openSecret(key, "ws-1", "TOKEN", tampered)).rejects.toThrow();
  });

  it("takes only base64 of 32 bytes as the key", async () => {
    expect(secretsKeyProblem(newSecretsKey())).toBeUndefined();
    expect(secretsKeyProblem(btoa("short"))).toMatch(/must be base64 of 32 random bytes; it holds 5/);
    expect(secretsKeyProblem("not base64 !!")).toBe("SECRETS_KEY is not base64.");
    await expect(importSecretsKey(btoa("x".repeat(31)))).rejects.toThrow(/holds 31/);
  });
});
