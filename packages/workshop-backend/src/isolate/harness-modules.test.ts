import { parse } from "es-module-lexer/js";
import { describe, expect, it } from "vitest";
import { scanImports } from "../build/module-imports.ts";
import { HARNESS_CONSOLE_MODULE, HARNESS_ENTRYPOINT, HARNESS_MODULE } from "./harness/contract.ts";
import { harnessModules } from "./harness-modules.ts";

describe("harnessModules", () => {
  const modules = harnessModules("lib/main.js");

  it("gives the console module and the harness module under their names", () => {
    expect(Object.keys(modules)).toEqual([HARNESS_CONSOLE_MODULE, HARNESS_MODULE]);
    const [, exports] = parse(modules[HARNESS_MODULE] ?? "");
    expect(exports.map((entry) => ("name" in entry ? entry.name : ""))).toEqual([HARNESS_ENTRYPOINT]);
  });

  it("has the harness import the console module, then the gadget's entry, and nothing of the gadget else", () => {
    const scan = scanImports(modules[HARNESS_MODULE] ?? "");
    expect(scan.ok && scan.imports.map((entry) => entry.specifier)).toEqual([
      "cloudflare:workers",
      `./${HARNESS_CONSOLE_MODULE}`,
      "./lib/main.js",
    ]);
  });

  it("gives the console module only the runtime's own imports", () => {
    const scan = scanImports(modules[HARNESS_CONSOLE_MODULE] ?? "");
    expect(scan.ok && scan.imports.map((entry) => entry.specifier)).toEqual(["node:async_hooks"]);
  });
});
