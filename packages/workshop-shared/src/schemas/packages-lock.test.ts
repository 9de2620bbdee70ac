import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { GadgetLockSchema } from "./packages.ts";

const entry = (name: string) => ({
  name,
  version: "1.0.0",
  resolved: `https://registry.npmjs.org/${name}/-/x-1.0.0.tgz`,
  integrity: `sha512-${"A".repeat(86)}==`,
});
const lock = (packages: Record<string, unknown>) => ({ lockfileVersion: 1, dependencies: {}, packages });
const firstIssue = (value: unknown) => {
  const result = v.safeParse(GadgetLockSchema, value);
  return result.success ? undefined : result.issues[0].message;
};

describe("GadgetLockSchema install paths", () => {
  it("takes nested and scoped install paths whose last name is the package's", () => {
    expect(
      firstIssue(
        lock({
          "node_modules/zod": entry("zod"),
          "node_modules/@s/a/node_modules/b": entry("b"),
          "node_modules/a/node_modules/@types/b": entry("@types/b"),
        }),
      ),
    ).toBeUndefined();
  });

  it.each([
    "node_modules/..",
    "node_modules/@x/..",
    "node_modules/@x/../node_modules/..",
    "node_modules/./zod",
    "node_modules/Zod",
    "node_modules/zod/",
    "node_modules/a/b",
  ])("refuses the key %s, which is no install path", (path) => {
    expect(firstIssue(lock({ [path]: entry("zod") }))).toMatch(/install paths like "node_modules\/zod"/);
  });

  it("refuses a package under another package's name", () => {
    expect(firstIssue(lock({ "node_modules/zod": entry("evil") }))).toBe(
      'Each locked package must be named as its install path says: "node_modules/zod" holds "evil".',
    );
  });
});
