import { packTar, type TarEntry } from "modern-tar";
import { describe, expect, it } from "vitest";
import { verifyIntegrity } from "./integrity.ts";
import { MAX_PACKAGE_BINARY_NAME_CHARS, MAX_PACKAGE_PATH_CHARS } from "@gadgets/workshop-shared/limits";
import { unpackTarball } from "./tarball.ts";
import { gzip, integrityOf, tarball } from "./testing/fake-registry.ts";
import { packageFailure } from "./testing/package-failure.ts";

const PACKAGE_JSON = JSON.stringify({ name: "a", version: "1.0.0" });

const tgz = async (entries: TarEntry[]) => gzip(await packTar(entries));
const file = (name: string, body: string): TarEntry => ({
  header: { name, size: new TextEncoder().encode(body).byteLength },
  body,
});

describe("verifyIntegrity", () => {
  it("accepts the bytes' own sha512 and refuses any other, naming package and version", async () => {
    const bytes = await tarball({ "package.json": PACKAGE_JSON });
    await verifyIntegrity(bytes, await integrityOf(bytes), "a", "1.0.0");
    const other = await integrityOf(new Uint8Array([1]));
    const error = await packageFailure(verifyIntegrity(bytes, other, "a", "1.0.0"));
    expect(error.kind).toBe("integrity");
    expect(error.message).toMatch(/The tarball of a@1\.0\.0 does not match its integrity/);
  });
});

describe("unpackTarball", () => {
  it("strips the top folder and keeps text files, and binary ones by name only", async () => {
    const bytes = await tarball({
      "package.json": PACKAGE_JSON,
      "lib/index.js": "export const a = 1;",
      "build/addon.node": "not really native",
      "logo.png": new Uint8Array([0x89, 0x50, 0xff, 0xfe]),
    });
    const unpacked = await unpackTarball(bytes, "a", "1.0.0");
    expect([...unpacked.files.keys()].sort()).toEqual(["lib/index.js", "package.json"]);
    expect(unpacked.files.get("lib/index.js")).toBe("export const a = 1;");
    expect(unpacked.binaries).toEqual(["build/addon.node", "logo.png"]);
  });

  it("refuses a tarball whose package.json names another package or version than the lock", async () => {
    const bytes = await tarball({ "package.json": JSON.stringify({ name: "evil-pkg", version: "1.0.0" }) });
    const error = await packageFailure(unpackTarball(bytes, "lodash", "4.17.21"));
    expect(error.kind).toBe("bad-package");
    expect(error.message).toBe(
      'The tarball for lodash@4.17.21 says it is "evil-pkg"@"1.0.0", so it was refused: a lock must name the package its tarball holds.',
    );
    await expect(unpackTarball(await tarball({ "package.json": PACKAGE_JSON }), "a", "1.0.1")).rejects.toThrow(
      /says it is "a"@"1.0.0"/,
    );
  });

  it("takes a top folder of any name, as npm does", async () => {
    const unpacked = await unpackTarball(await tgz([file("node-a/package.json", PACKAGE_JSON)]), "a", "1.0.0");
    expect([...unpacked.files.keys()]).toEqual(["package.json"]);
  });

  it.each([
    ["package/../../etc/passwd", /climbs out/],
    ["package/lib/../../x.js", /climbs out/],
    ["/etc/passwd", /absolute path/],
    ["C:/evil.js", /absolute path/],
  ])("refuses the entry %s", async (name, why) => {
    const error = await packageFailure(
      unpackTarball(await tgz([file("package/package.json", PACKAGE_JSON), file(name, "x")]), "a", "1.0.0"),
    );
    expect(error.kind).toBe("unsafe-tarball");
    expect(error.packageName).toBe("a");
    expect(error.message).toMatch(why);
  });

  it("refuses a zero-length, a truncated and a non-gzip archive as bad-package, saying so", async () => {
    const whole = await tgz([file("package/package.json", PACKAGE_JSON)]);
    for (const bytes of [new Uint8Array(0), whole.slice(0, whole.length - 10), new TextEncoder().encode("hello")]) {
      const error = await packageFailure(unpackTarball(bytes, "a", "1.0.0"));
      expect(error.kind).toBe("bad-package");
      expect(error.message).toMatch(
        /^The tarball of a@1\.0\.0 could not be read as a gzipped tar.*: it is empty, cut short or not a tarball\.$/,
      );
      expect(error.message).not.toContain("()");
    }
  });

  it("refuses a PAX path or a GNU long name that climbs out, whatever the plain name says", async () => {
    const viaPax = file("package/ok.js", "x");
    viaPax.header.pax = { path: "package/../../evil.js" };
    const long = file(`package/${"d/".repeat(80)}${"../".repeat(90)}evil.js`, "x");
    for (const entry of [viaPax, long]) {
      const error = await packageFailure(
        unpackTarball(await tgz([file("package/package.json", PACKAGE_JSON), entry]), "a", "1.0.0"),
      );
      expect(error.kind).toBe("unsafe-tarball");
      expect(error.message).toMatch(/climbs out/);
    }
  });

  it.each(["symlink", "link", "character-device", "block-device", "fifo"] as const)(
    "refuses a %s entry",
    async (type) => {
      const entries: TarEntry[] = [
        file("package/package.json", PACKAGE_JSON),
        { header: { name: "package/x", size: 0, type, linkname: "/etc/passwd" } },
      ];
      const error = await packageFailure(unpackTarball(await tgz(entries), "a", "1.0.0"));
      expect(error.kind).toBe("unsafe-tarball");
      expect(error.message).toMatch(new RegExp(`a ${type} entry`));
    },
  );

  it("holds MAX_PACKAGE_FILES: N files pass, N + 1 are refused", async () => {
    const files = (n: number) =>
      Object.fromEntries([
        ["package.json", PACKAGE_JSON],
        ...Array.from({ length: n - 1 }, (_, i) => [`f${i}.js`, ""]),
      ]);
    const limits = { maxFiles: 5, maxBytes: 1_000_000 };
    expect((await unpackTarball(await tarball(files(5)), "a", "1.0.0", limits)).files.size).toBe(5);
    const error = await packageFailure(unpackTarball(await tarball(files(6)), "a", "1.0.0", limits));
    expect([error.kind, error.message]).toEqual([
      "too-large",
      "a@1.0.0 holds more than 5 files, the limit for one package.",
    ]);
  });

  it("holds MAX_PACKAGE_PATH_CHARS and MAX_PACKAGE_BINARY_NAME_CHARS: N pass, N + 1 are refused", async () => {
    // The whole entry name counts, the top folder ("package/") included.
    const long = (chars: number) => `package/${"d".repeat(chars - "package/".length - ".js".length)}.js`;
    const fits = await tgz([file("package/package.json", PACKAGE_JSON), file(long(MAX_PACKAGE_PATH_CHARS), "1")]);
    expect((await unpackTarball(fits, "a", "1.0.0")).files.size).toBe(2);
    const over = await tgz([file("package/package.json", PACKAGE_JSON), file(long(MAX_PACKAGE_PATH_CHARS + 1), "1")]);
    const error = await packageFailure(unpackTarball(over, "a", "1.0.0"));
    expect([error.kind, error.packageName]).toEqual(["too-large", "a"]);
    expect(error.message).toContain(`over the ${MAX_PACKAGE_PATH_CHARS} the Workshop stores`);

    const binary = (i: number): TarEntry => ({
      header: { name: `package/${String(i).padStart(1000, "b")}.bin`, size: 1 },
      body: new Uint8Array([255]),
    });
    const names = (count: number) => [
      file("package/package.json", PACKAGE_JSON),
      ...Array.from({ length: count }, (_, i) => binary(i)),
    ];
    const perName = 1004;
    const most = Math.floor(MAX_PACKAGE_BINARY_NAME_CHARS / perName);
    expect((await unpackTarball(await tgz(names(most)), "a", "1.0.0")).binaries).toHaveLength(most);
    const tooMany = await packageFailure(unpackTarball(await tgz(names(most + 1)), "a", "1.0.0"));
    expect(tooMany.message).toContain(`more than ${MAX_PACKAGE_BINARY_NAME_CHARS} characters`);
  });

  it("holds MAX_PACKAGE_UNPACKED_BYTES: N bytes pass, N + 1 are refused", async () => {
    const size = new TextEncoder().encode(PACKAGE_JSON).byteLength + 100;
    const limits = { maxFiles: 10, maxBytes: size };
    const fits = await tarball({ "package.json": PACKAGE_JSON, "a.js": "x".repeat(100) });
    expect((await unpackTarball(fits, "a", "1.0.0", limits)).bytes).toBe(size);
    const over = await tarball({ "package.json": PACKAGE_JSON, "a.js": "x".repeat(101) });
    expect((await packageFailure(unpackTarball(over, "a", "1.0.0", limits))).kind).toBe("too-large");
  });

  it("says bad-package for a missing or broken package.json, and for bytes that are not a gzipped tar", async () => {
    expect((await packageFailure(unpackTarball(await tarball({ "index.js": "" }), "a", "1.0.0"))).message).toMatch(
      /has no package.json/,
    );
    expect((await packageFailure(unpackTarball(await tarball({ "package.json": "{" }), "a", "1.0.0"))).message).toMatch(
      /package.json of a@1.0.0 is not a JSON object/,
    );
    const garbage = await packageFailure(unpackTarball(new TextEncoder().encode("hello"), "a", "1.0.0"));
    expect([garbage.kind, garbage.message]).toEqual([
      "bad-package",
      expect.stringMatching(/not be read as a gzipped tar/),
    ]);
  });
});
