import { describe, expect, it } from "vitest";
import { undeclaredImports } from "./package-imports.ts";

const file = (content: string, path = "index.ts") => ({ path, content });

describe("undeclaredImports", () => {
  it("finds imports of packages gadget.json does not declare, with the specifier's place", () => {
    const source =
      'import { z } from "zod";\nimport { addDays } from \'date-fns/addDays\';\nconst y = await import("yaml");\n';
    expect(undeclaredImports([file(source)], { yaml: "^2.0.0" })).toEqual([
      { path: "index.ts", name: "zod", line: 1, startColumn: 19, endColumn: 24 },
      { path: "index.ts", name: "date-fns", line: 2, startColumn: 25, endColumn: 43 },
    ]);
  });

  it("names a scoped package, and finds require and export … from", () => {
    const source = 'export { x } from "@scope/pkg/sub";\nconst c = require("cjs-lib");\n';
    expect(undeclaredImports([file(source, "lib.js")], {}).map((found) => found.name)).toEqual([
      "@scope/pkg",
      "cjs-lib",
    ]);
  });

  it("leaves out relative files, node: and bare built-ins, comments and declaration files", () => {
    const source =
      'import { a } from "./a.ts";\nimport fs from "node:fs";\nimport { Buffer } from "buffer";\n// import { z } from "zod";\n';
    expect(
      undeclaredImports([file(source), file('import "zod";', "types.d.ts"), file('"zod"', "notes.md")], {}),
    ).toEqual([]);
  });
});
