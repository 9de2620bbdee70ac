import { describe, expect, it } from "vitest";
import type { Env } from "../env.ts";
import { newSecretsKey } from "../secret-crypto.ts";
import type { StoredRegistry } from "../storage/settings-table.ts";
import type { WorkspaceStore } from "../storage/workspace-store.ts";
import { PackageError } from "./package-error.ts";
import { defaultRegistry, registryInfo, setWorkspaceRegistry, workspaceRegistry } from "./registry-setting.ts";

function fakeStore() {
  let stored: StoredRegistry | undefined;
  const store = {
    registry: async () => stored,
    setRegistry: async (registry: StoredRegistry | undefined) => {
      stored = registry;
    },
  };
  return { store: store as unknown as DurableObjectStub<WorkspaceStore>, stored: () => stored };
}

const env = (vars: Partial<Env> = {}) => ({ SECRETS_KEY: newSecretsKey(), ...vars }) as Env;

describe("the registry setting", () => {
  it("defaults to the public npm registry, or NPM_REGISTRY", () => {
    expect(defaultRegistry(env())).toBe("https://registry.npmjs.org/");
    expect(defaultRegistry(env({ NPM_REGISTRY: "https://npm.example.com/r" }))).toBe("https://npm.example.com/r/");
  });

  it("stores the token sealed, says only that there is one, and opens it for requests", async () => {
    const { store, stored } = fakeStore();
    const vars = env();
    const info = await setWorkspaceRegistry(vars, "ws1", store, {
      url: "https://npm.example.com",
      token: "s3cret-token",
    });
    expect(info).toEqual({ url: "https://npm.example.com/", isDefault: false, hasToken: true });
    expect(JSON.stringify(stored())).not.toContain("s3cret-token");
    expect(await workspaceRegistry(vars, "ws1", store)).toEqual({
      base: "https://npm.example.com/",
      token: "s3cret-token",
      isDefault: false,
    });
    // Sealed for ws1: a copy under another workspace does not open.
    await expect(workspaceRegistry(vars, "ws2", store)).rejects.toBeInstanceOf(PackageError);
    expect(await setWorkspaceRegistry(vars, "ws1", store, null)).toEqual({
      url: "https://registry.npmjs.org/",
      isDefault: true,
      hasToken: false,
    });
    expect(await registryInfo(vars, store)).toMatchObject({ isDefault: true });
  });

  it("refuses plain http, and this machine unless the Workshop allows a registry there", async () => {
    const { store } = fakeStore();
    await expect(setWorkspaceRegistry(env(), "ws1", store, { url: "http://npm.example.com/" })).rejects.toThrow(
      /not an https URL/,
    );
    await expect(setWorkspaceRegistry(env(), "ws1", store, { url: "http://127.0.0.1:4873/" })).rejects.toThrow(
      /on this machine/,
    );
    const allowed = await setWorkspaceRegistry(env({ ALLOW_LOCAL_REGISTRY: "1" }), "ws1", store, {
      url: "http://127.0.0.1:4873/",
    });
    expect(allowed.url).toBe("http://127.0.0.1:4873/");
  });
});
