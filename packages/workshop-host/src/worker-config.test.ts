import { describe, expect, it } from "vitest";
import { parseWorkerConfig } from "./worker-config.ts";

const BASE = `name = "w"
compatibility_date = "2026-11-01"
`;

describe("parseWorkerConfig", () => {
  it("reads Durable Objects with their storage from the migrations, loaders, vars and assets", () => {
    const config = parseWorkerConfig(`${BASE}
compatibility_flags = ["a_flag"]
[[worker_loaders]]
binding = "LOADER"
[[durable_objects.bindings]]
name = "ONE"
class_name = "One"
[[durable_objects.bindings]]
name = "TWO"
class_name = "Two"
[[migrations]]
tag = "v1"
new_sqlite_classes = ["One"]
new_classes = ["Old"]
[[migrations]]
tag = "v2"
renamed_classes = [{ from = "Old", to = "Two" }]
[vars]
TEXT = "x"
LIMIT = 3
[assets]
directory = "dist"
binding = "ASSETS"
`);
    expect(config).toEqual({
      name: "w",
      compatibilityDate: "2026-11-01",
      compatibilityFlags: ["a_flag"],
      workerLoaders: ["LOADER"],
      durableObjects: [
        { binding: "ONE", className: "One", sqlite: true },
        { binding: "TWO", className: "Two", sqlite: false },
      ],
      vars: { TEXT: "x", LIMIT: 3 },
      assets: { directory: "dist", binding: "ASSETS" },
    });
  });

  it("refuses a Durable Object whose class no migration creates, saying what to add", () => {
    expect(() =>
      parseWorkerConfig(`${BASE}
[[durable_objects.bindings]]
name = "PACKAGES"
class_name = "PackageStore"
`),
    ).toThrow(
      /PACKAGES has class PackageStore, which no migration creates\. Add \[\[migrations\]\] with new_sqlite_classes = \["PackageStore"\]/,
    );
  });

  it("names the file and the key that is wrong", () => {
    expect(() => parseWorkerConfig(`name = "w"\ncompatibility_date = "soon"\n`, "my.toml")).toThrow(
      /^my\.toml: .*compatibility_date/,
    );
    expect(() => parseWorkerConfig(`${BASE}[[worker_loaders]]\nbinding = 3\n`)).toThrow(/worker_loaders\.0\.binding/);
  });

  it("refuses a class of another Worker, which the local host cannot run", () => {
    expect(() =>
      parseWorkerConfig(`${BASE}
[[durable_objects.bindings]]
name = "X"
class_name = "X"
script_name = "other"
`),
    ).toThrow(/script_name/);
  });

  it("says when the text is not TOML", () => {
    expect(() => parseWorkerConfig("name = ", "wrangler.toml")).toThrow(/^wrangler\.toml is not valid TOML/);
  });
});
