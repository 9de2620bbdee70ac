import { MAX_PACKAGE_SOURCE_MAP_CHARS } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { sourceMapOf, throughPackageMap } from "./package-source-map.ts";

const CODE = "export const g = () => h();\n//# sourceMappingURL=index.js.map";

/** A map of exactly `chars` characters (JSON whitespace pads it): line 1 column 1 from src/index.ts 1:5. */
function mapOfLength(chars: number): string {
  const text = JSON.stringify({ version: 3, sources: ["../src/index.ts"], names: [], mappings: "AAAI" });
  return `${text.slice(0, -1)}${" ".repeat(chars - text.length)}}`;
}

const mapped = (map: string, code = CODE) =>
  sourceMapOf(code, "dist/index.js", new Map([["dist/index.js.map", map]]), "node_modules/a")?.();

describe("sourceMapOf", () => {
  it("parses a map of MAX_PACKAGE_SOURCE_MAP_CHARS and leaves one character more unread", () => {
    const fits = mapped(mapOfLength(MAX_PACKAGE_SOURCE_MAP_CHARS));
    expect(fits && throughPackageMap(fits, "node_modules/a", 1, 1)).toEqual({
      path: "node_modules/a/src/index.ts",
      line: 1,
      column: 5,
    });
    expect(mapped(mapOfLength(MAX_PACKAGE_SOURCE_MAP_CHARS + 1))).toBeUndefined();
  });

  it("names no map for a malformed escape in its URL, rather than throwing from the build", () => {
    const code = "export const g = 1;\n//# sourceMappingURL=%E0%A4%A.map";
    expect(() => mapped(mapOfLength(200), code)).not.toThrow();
    expect(mapped(mapOfLength(200), code)).toBeUndefined();
  });

  it("uses no source outside the package", () => {
    const map = JSON.stringify({ version: 3, sources: ["../../../index.ts"], names: [], mappings: "AAAI" });
    const parsed = mapped(map);
    expect(parsed && throughPackageMap(parsed, "node_modules/a", 1, 1)).toBeUndefined();
  });
});
