import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultSecretsKeyFile, loadSecretsKey } from "./secrets-key.ts";

describe("loadSecretsKey", () => {
  let root: string;
  let data: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "secrets-key-"));
    data = join(root, ".data");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("makes an owner-only key file beside the data folder on first start, and reads the same key after", () => {
    const file = defaultSecretsKeyFile(data);
    expect(file).toBe(join(root, ".data.secrets-key"));
    const key = loadSecretsKey(file, data);
    expect(Buffer.from(key, "base64")).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecretsKey(file, data)).toBe(key);
    expect(readFileSync(file, "utf8").trim()).toBe(key);
  });

  it("refuses a key file inside the data folder", () => {
    expect(() => loadSecretsKey(join(data, "workspaces", "key"), data)).toThrow(/inside the data folder/);
    expect(() => loadSecretsKey(data, data)).toThrow(/inside the data folder/);
  });

  it("refuses a file that does not hold base64 of 32 bytes", () => {
    const file = join(root, "bad-key");
    writeFileSync(file, "not a key\n");
    expect(() => loadSecretsKey(file, data)).toThrow(/does not hold base64 of 32 bytes/);
  });
});
