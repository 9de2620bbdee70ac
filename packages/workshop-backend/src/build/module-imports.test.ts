import { describe, expect, it } from "vitest";
import { positionOf, rewriteImports, scanImports } from "./module-imports.ts";

const specifiers = (code: string) => {
  const scan = scanImports(code);
  if (!scan.ok) throw new Error(scan.message);
  return scan.imports.map((entry) => entry.specifier);
};

describe("scanImports", () => {
  it("finds static imports, re-exports and literal dynamic imports, in order", () => {
    const code = [
      'import a from "./a";',
      "export * from './b';",
      'export { q } from "./d";',
      'const c = await import("./c");',
      "const computed = import(name);",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the gadget code under test holds a template
      "const glob = import(`./x/${name}.js`);",
      "import.meta.url;",
    ].join("\n");
    expect(specifiers(code)).toEqual(["./a", "./b", "./d", "./c"]);
  });

  it("ignores what only looks like an import: comments, strings and templates", () => {
    const code = [
      '// import "./in-a-comment";',
      '/* export * from "./in-a-block" */',
      "const s = \"import './in-a-string'\";",
      "const t = `import x from './in-a-template'`;",
      'import real from "./real";',
    ].join("\n");
    expect(specifiers(code)).toEqual(["./real"]);
  });

  it("reads a large module of import-like lines in one pass", () => {
    const code = `${"export\n".repeat(40_000)}export const x = 1;\nimport y from "./y";\n`;
    expect(specifiers(code)).toEqual(["./y"]);
  });

  it("reports where a module it cannot read goes wrong", () => {
    const scan = scanImports("const a = 1;\nconst b = `unterminated");
    expect(scan.ok).toBe(false);
    if (!scan.ok) expect(positionOf("const a = 1;\nconst b = `unterminated", scan.offset).line).toBe(2);
  });
});

describe("rewriteImports", () => {
  it("replaces each specifier, keeping quotes around dynamic ones", () => {
    const code = 'import a from "./a";\nconst b = await import("./b");\n';
    const scan = scanImports(code);
    if (!scan.ok) throw new Error(scan.message);
    expect(rewriteImports(code, scan.imports, (entry) => `${entry.specifier}.js`)).toBe(
      'import a from "./a.js";\nconst b = await import("./b.js");\n',
    );
  });
});
