import { describe, expect, it } from "vitest";
import { UNTYPED_PACKAGES_PATH, untypedPackagesFile } from "./untyped-packages.ts";

const file = (path: string) => ({ path, content: "" });

describe("untypedPackagesFile", () => {
  it("declares each dependency without declarations of its own or from @types, subpaths too", () => {
    const typeFiles = [
      file("node_modules/fx-zod/package.json"),
      file("node_modules/fx-zod/index.d.ts"),
      file("node_modules/@types/fx-untyped/index.d.ts"),
      file("node_modules/@types/scope__typed/index.d.ts"),
      file("node_modules/fx-sourcemap/package.json"),
    ];
    expect(untypedPackagesFile(["fx-zod", "fx-untyped", "@scope/typed", "fx-sourcemap"], typeFiles)).toEqual({
      path: UNTYPED_PACKAGES_PATH,
      content: 'declare module "fx-sourcemap";\ndeclare module "fx-sourcemap/*";\n',
    });
  });

  it("is absent when every dependency has types, and covers all while none have arrived", () => {
    expect(untypedPackagesFile(["fx-zod"], [file("node_modules/fx-zod/index.d.mts")])).toBeUndefined();
    expect(untypedPackagesFile([], [])).toBeUndefined();
    expect(untypedPackagesFile(["@scope/pkg"], [])?.content).toBe(
      'declare module "@scope/pkg";\ndeclare module "@scope/pkg/*";\n',
    );
  });
});
