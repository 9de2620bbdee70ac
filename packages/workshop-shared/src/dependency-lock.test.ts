import { describe, expect, it } from "vitest";
import type { GadgetFile, ResolveDependenciesInput, ResolveOutcome } from "./api.ts";
import {
  declaredDependencies,
  lockErrorText,
  lockState,
  packageOfSpecifier,
  refreshLock,
  withDependency,
} from "./dependency-lock.ts";

const manifest = (extra: Record<string, unknown> = {}): GadgetFile => ({
  path: "gadget.json",
  content: JSON.stringify({ name: "g", entry: "index.ts", ...extra }),
});
const INTEGRITY = `sha512-${"A".repeat(86)}==`;
const lockFor = (dependencies: Record<string, string>) =>
  JSON.stringify({
    lockfileVersion: 1,
    dependencies,
    packages: Object.fromEntries(
      Object.keys(dependencies).map((name) => [
        `node_modules/${name}`,
        { name, version: "1.0.0", resolved: `http://127.0.0.1/${name}.tgz`, integrity: INTEGRITY },
      ]),
    ),
  });
const lockFile = (dependencies: Record<string, string>): GadgetFile => ({
  path: "gadget.lock.json",
  content: lockFor(dependencies),
});

function resolver(answer: (input: ResolveDependenciesInput) => ResolveOutcome) {
  const calls: ResolveDependenciesInput[] = [];
  return {
    calls,
    resolve: async (input: ResolveDependenciesInput) => {
      calls.push(input);
      return answer(input);
    },
  };
}
const okAnswer = (input: ResolveDependenciesInput): ResolveOutcome => ({
  status: "ok",
  lock: lockFor(input.dependencies),
  packages: [],
});

describe("lockState", () => {
  it("is fresh without dependencies and lock, and when the lock was resolved for these dependencies", () => {
    expect(lockState([manifest()])).toEqual({ status: "fresh" });
    expect(lockState([manifest({ dependencies: { a: "^1.0.0" } }), lockFile({ a: "^1.0.0" })])).toEqual({
      status: "fresh",
    });
  });

  it("is stale with no lock, a lock for other ranges, or a lock that is not one", () => {
    expect(lockState([manifest({ dependencies: { a: "^1.0.0" } })])).toEqual({
      status: "stale",
      dependencies: { a: "^1.0.0" },
      lock: null,
    });
    expect(lockState([manifest({ dependencies: { a: "^2.0.0" } }), lockFile({ a: "^1.0.0" })]).status).toBe("stale");
    expect(lockState([manifest(), lockFile({ a: "^1.0.0" })]).status).toBe("stale");
    expect(
      lockState([manifest({ dependencies: { a: "1" } }), { path: "gadget.lock.json", content: "{oops" }]).status,
    ).toBe("stale");
  });

  it("leaves an unreadable manifest or invalid dependencies to the build's own message", () => {
    expect(lockState([{ path: "gadget.json", content: "{" }]).status).toBe("unreadable");
    expect(lockState([manifest({ dependencies: { "Not A Name": "1" } })]).status).toBe("unreadable");
    expect(declaredDependencies([manifest({ dependencies: { a: "latest" } })])).toBeUndefined();
  });
});

describe("refreshLock", () => {
  it("asks nothing when the lock is fresh", async () => {
    const { calls, resolve } = resolver(okAnswer);
    const files = [manifest({ dependencies: { a: "^1.0.0" } }), lockFile({ a: "^1.0.0" })];
    expect(await refreshLock(files, resolve)).toEqual({ status: "ok", files, changed: false });
    expect(calls).toEqual([]);
  });

  it("writes the resolved lock when stale, passing the old lock to keep what still fits", async () => {
    const { calls, resolve } = resolver(okAnswer);
    const old = lockFile({ a: "^1.0.0" });
    const result = await refreshLock([manifest({ dependencies: { a: "^1.0.0", b: "2" } }), old], resolve);
    expect(calls).toEqual([{ dependencies: { a: "^1.0.0", b: "2" }, lock: old.content }]);
    expect(result).toMatchObject({ status: "ok", changed: true });
    if (result.status !== "ok") return;
    expect(result.files.find((file) => file.path === "gadget.lock.json")?.content).toBe(
      lockFor({ a: "^1.0.0", b: "2" }),
    );
    expect(result.files.filter((file) => file.path === "gadget.lock.json")).toHaveLength(1);
  });

  it("re-resolves a fresh lock for an update", async () => {
    const { calls, resolve } = resolver(okAnswer);
    const files = [manifest({ dependencies: { a: "^1.0.0" } }), lockFile({ a: "^1.0.0" })];
    const result = await refreshLock(files, resolve, ["a"]);
    expect(calls).toEqual([{ dependencies: { a: "^1.0.0" }, lock: lockFor({ a: "^1.0.0" }), update: ["a"] }]);
    expect(result).toMatchObject({ status: "ok", changed: false });
  });

  it("answers the resolution's error as it came, naming the package", async () => {
    const { resolve } = resolver(() => ({
      status: "error",
      kind: "unknown-package",
      package: "nope",
      message: "No package named nope on the registry.",
    }));
    const result = await refreshLock([manifest({ dependencies: { nope: "1" } })], resolve);
    expect(result).toEqual({
      status: "error",
      kind: "unknown-package",
      package: "nope",
      message: "No package named nope on the registry.",
    });
    expect(lockErrorText({ package: "x", message: "Not found." })).toBe("x: Not found.");
  });
});

describe("withDependency", () => {
  it("adds to dependencies, creating the field last, and changes a range in place", () => {
    const added = withDependency('{"name":"g","entry":"index.ts"}', "zod", "^4.1.2");
    expect(JSON.parse(added)).toEqual({ name: "g", entry: "index.ts", dependencies: { zod: "^4.1.2" } });
    expect(Object.keys(JSON.parse(added))).toEqual(["name", "entry", "dependencies"]);
    const changed = withDependency(added, "zod", "^4.2.0");
    expect(JSON.parse(changed).dependencies).toEqual({ zod: "^4.2.0" });
    expect(() => withDependency("[]", "zod", "1")).toThrow(/object/);
  });
});

describe("packageOfSpecifier", () => {
  it("names the package of a bare specifier and nothing for relative, URL or node: ones", () => {
    expect(packageOfSpecifier("zod")).toBe("zod");
    expect(packageOfSpecifier("zod/mini")).toBe("zod");
    expect(packageOfSpecifier("@scope/pkg/sub/path")).toBe("@scope/pkg");
    expect(packageOfSpecifier("@scope")).toBeUndefined();
    expect(packageOfSpecifier("./util.ts")).toBeUndefined();
    expect(packageOfSpecifier("node:fs")).toBeUndefined();
    expect(packageOfSpecifier("https://esm.sh/zod")).toBeUndefined();
  });
});
