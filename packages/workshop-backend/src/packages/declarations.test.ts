import { describe, expect, it } from "vitest";
import { hasOwnTypes, isDeclarationFile, typesPackageName, typesRanges } from "./declarations.ts";

describe("hasOwnTypes", () => {
  it("finds types, typings, an exports types condition, typesVersions, or an index.d.ts beside main", () => {
    expect(hasOwnTypes({ types: "./x.d.ts" }, [])).toBe(true);
    expect(hasOwnTypes({ typings: "x.d.ts" }, [])).toBe(true);
    expect(hasOwnTypes({ exports: { ".": { import: { types: "./a.d.mts", default: "./a.mjs" } } } }, [])).toBe(true);
    expect(hasOwnTypes({ typesVersions: { "*": {} } }, [])).toBe(true);
    expect(hasOwnTypes({ main: "./lib/index.js" }, ["lib/index.d.ts"])).toBe(true);
    expect(hasOwnTypes({}, ["index.d.ts"])).toBe(true);
  });

  it("says no for a package with none", () => {
    expect(hasOwnTypes({ main: "index.js", exports: { ".": "./index.js" } }, ["index.js", "lib/other.d.ts"])).toBe(
      false,
    );
  });
});

describe("declaration helpers", () => {
  it("recognise .d.ts, .d.mts and .d.cts", () => {
    expect(["a.d.ts", "a.d.mts", "a.d.cts", "a.ts", "a.d.js"].map(isDeclarationFile)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it("name @types packages as DefinitelyTyped does", () => {
    expect(typesPackageName("lodash")).toBe("@types/lodash");
    expect(typesPackageName("@babel/core")).toBe("@types/babel__core");
  });

  it("try the same major.minor, then the same major, then any", () => {
    expect(typesRanges("2.3.1")).toEqual(["~2.3.0", "^2.0.0", "*"]);
  });
});
