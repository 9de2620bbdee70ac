import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_MAX_SCANNED_ENTRIES, MAX_FILE_BYTES, MAX_FILES } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { CliError } from "./cli-error.ts";
import { EXIT } from "./exit-codes.ts";
import { readGadgetFolder } from "./gadget-folder.ts";

const SOURCE = "export default { async run() { return 1; } };\n";

function folderWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "gadget-folder-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const gadgetFiles = (extra: Record<string, string> = {}) => ({
  "gadget.json": JSON.stringify({ name: "g", entry: "index.ts" }),
  "index.ts": SOURCE,
  ...extra,
});

function refusal(root: string): CliError {
  try {
    readGadgetFolder(root);
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error("the folder was accepted");
}

const paths = (root: string) => readGadgetFolder(root).files.map((file) => file.path);

describe("readGadgetFolder", () => {
  it("takes the gadget's files in a stable order, with the manifest checked", () => {
    const root = folderWith(gadgetFiles({ "lib/util.ts": "export const x = 1;\n", "README.md": "# g\n" }));
    const folder = readGadgetFolder(root);
    expect(folder.files.map((file) => file.path)).toEqual(["README.md", "gadget.json", "index.ts", "lib/util.ts"]);
    expect(folder.manifest).toMatchObject({ name: "g", entry: "index.ts" });
  });

  it("leaves out node_modules, hidden files and the editor-only files gadgets init writes", () => {
    const root = folderWith(
      gadgetFiles({
        "node_modules/dep/index.js": "x",
        ".env": "SECRET=1",
        ".vscode/settings.json": "{}",
        "tsconfig.json": "{}",
        "gadget-env.d.ts": "interface GadgetEnv {}",
        "lib/types.d.ts": "export {};",
      }),
    );
    expect(paths(root)).toEqual(["gadget.json", "index.ts"]);
  });

  it("honours .gitignore in the folder, its subfolders and above it up to the repository root", () => {
    const repo = folderWith({
      ".git/HEAD": "ref: refs/heads/main\n",
      ".gitignore": "*.log\n",
      "outside/.gitignore": "ignored-by-outside.txt\n",
    });
    const root = join(repo, "gadgets", "g");
    mkdirSync(root, { recursive: true });
    for (const [path, content] of Object.entries(
      gadgetFiles({
        ".gitignore": "build/\nnotes.md\n!keep.log\n",
        "build/out.js": "x",
        "notes.md": "private",
        "debug.log": "x",
        "keep.log": "kept",
        "data/.gitignore": "*.txt\n",
        "data/big.txt": "x",
        "data/table.json": "[]",
      }),
    )) {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    // keep.log is unignored but .log is not a type the Workshop takes: the refusal proves it was not ignored.
    expect(refusal(root).message).toContain('File "keep.log" has an unsupported type');
    writeFileSync(join(root, ".gitignore"), "build/\nnotes.md\n");
    expect(paths(root)).toEqual(["data/table.json", "gadget.json", "index.ts"]);
  });

  it("refuses a folder without a manifest, saying how to make one", () => {
    const error = refusal(folderWith({ "index.ts": SOURCE }));
    expect(error.exitCode).toBe(EXIT.invalid);
    expect(error.message).toContain("no gadget.json here");
    expect(error.message).toContain("gadgets init");
  });

  it("accepts a file of MAX_FILE_BYTES and refuses MAX_FILE_BYTES + 1 without reading it", () => {
    const root = folderWith(gadgetFiles({ "data.txt": "a".repeat(MAX_FILE_BYTES) }));
    expect(paths(root)).toContain("data.txt");
    writeFileSync(join(root, "data.txt"), "a".repeat(MAX_FILE_BYTES + 1));
    expect(refusal(root).message).toContain(`"data.txt" is ${MAX_FILE_BYTES + 1} bytes`);
  });

  it("accepts MAX_FILES files and refuses one more", () => {
    const extra: Record<string, string> = {};
    for (let i = 0; i < MAX_FILES - 2; i++) extra[`part${i}.ts`] = "export {};\n";
    const root = folderWith(gadgetFiles(extra));
    expect(paths(root)).toHaveLength(MAX_FILES);
    writeFileSync(join(root, "one-more.ts"), "export {};\n");
    expect(refusal(root).message).toContain(`more than ${MAX_FILES} files`);
  });

  it("looks through CLI_MAX_SCANNED_ENTRIES entries and stops at one more", () => {
    const root = folderWith(gadgetFiles());
    // Two entries already (gadget.json, index.ts); the rest are ignored files that still cost a look.
    writeFileSync(join(root, ".gitignore"), "*.tmp\n");
    for (let i = 0; i < CLI_MAX_SCANNED_ENTRIES - 3; i++) writeFileSync(join(root, `f${i}.tmp`), "");
    expect(paths(root)).toEqual(["gadget.json", "index.ts"]);
    writeFileSync(join(root, "one-more.tmp"), "");
    expect(refusal(root).message).toContain(`more than ${CLI_MAX_SCANNED_ENTRIES} files and folders`);
  });

  it("follows links inside the folder and refuses links that leave it", () => {
    const root = folderWith(gadgetFiles({ "lib/real.ts": "export const x = 1;\n" }));
    symlinkSync(join(root, "lib", "real.ts"), join(root, "alias.ts"));
    expect(paths(root)).toContain("alias.ts");
    const outside = folderWith({ "secret.txt": "s" });
    symlinkSync(join(outside, "secret.txt"), join(root, "secret.txt"));
    expect(refusal(root).message).toContain('"secret.txt" links outside the gadget\'s folder');
  });

  it("skips a link that .gitignore lists before looking where it leads, as its refusal suggests", () => {
    const outside = folderWith({ "secret.txt": "s", "vendor/lib.ts": "export {};\n" });
    const root = folderWith(gadgetFiles({ ".gitignore": "secret.txt\nvendor/\nnowhere.ts\n" }));
    symlinkSync(join(outside, "secret.txt"), join(root, "secret.txt"));
    symlinkSync(join(outside, "vendor"), join(root, "vendor"));
    symlinkSync(join(root, "missing.ts"), join(root, "nowhere.ts"));
    expect(paths(root)).toEqual(["gadget.json", "index.ts"]);
  });

  it("refuses a link to nowhere, or a loop of links, naming it and how to leave it out", () => {
    const root = folderWith(gadgetFiles());
    symlinkSync(join(root, "missing.ts"), join(root, "nowhere.ts"));
    const error = refusal(root);
    expect(error.exitCode).toBe(EXIT.invalid);
    expect(error.message).toContain('"nowhere.ts" is a link to nothing');
    expect(error.message).toContain(".gitignore");

    const looped = folderWith(gadgetFiles());
    symlinkSync(join(looped, "b.ts"), join(looped, "a.ts"));
    symlinkSync(join(looped, "a.ts"), join(looped, "b.ts"));
    expect(refusal(looped).message).toContain('"a.ts" is a link to nothing');
  });
});
