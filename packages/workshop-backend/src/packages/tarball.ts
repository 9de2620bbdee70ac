/**
 * A verified tarball → the package's files. gzip is undone by the runtime's DecompressionStream and tar
 * read by modern-tar (streaming, USTAR + PAX, no dependencies, made for Workers); this module adds what
 * an npm install needs and a sandbox demands: the top folder (`package/`) stripped, anything but plain
 * files and folders refused (symlinks, hard links, devices), paths that climb out (`..`) or start at the
 * root refused, and the counts and sizes held to the limits as the entries stream. Nothing is run.
 */

import {
  MAX_PACKAGE_BINARY_NAME_CHARS,
  MAX_PACKAGE_FILES,
  MAX_PACKAGE_PATH_CHARS,
  MAX_PACKAGE_UNPACKED_BYTES,
} from "@gadgets/workshop-shared/limits";
import { createTarDecoder } from "modern-tar";
import { PackageError } from "./package-error.ts";

export interface UnpackedPackage {
  /** Text files by path inside the package ("package.json", "lib/index.js"). */
  files: Map<string, string>;
  /** Files that are not UTF-8 text (or are native addons), by path: kept by name only. */
  binaries: string[];
  /** Bytes of every file, text and binary. */
  bytes: number;
}

export interface UnpackLimits {
  maxFiles: number;
  maxBytes: number;
}

const DEFAULT_LIMITS: UnpackLimits = { maxFiles: MAX_PACKAGE_FILES, maxBytes: MAX_PACKAGE_UNPACKED_BYTES };

/** A tar's own bytes around its files: a 512-byte header and up to 511 of padding per entry, with room for PAX records. */
const TAR_OVERHEAD_PER_ENTRY = 2048;

/** The path inside the package, or undefined for the top folder itself; throws for a path that escapes. */
function packagePath(entryName: string, label: string): string | undefined {
  const unsafe = (why: string) =>
    new PackageError(
      "unsafe-tarball",
      `The tarball of ${label} holds ${JSON.stringify(entryName.slice(0, 200))}, ${why}: it was refused.`,
    );
  if (entryName.length > MAX_PACKAGE_PATH_CHARS)
    throw new PackageError(
      "too-large",
      `The tarball of ${label} holds a path of ${entryName.length} characters, over the ${MAX_PACKAGE_PATH_CHARS} the Workshop stores: it was refused.`,
    );
  if (entryName.startsWith("/") || /^[A-Za-z]:/.test(entryName)) throw unsafe("an absolute path");
  const parts = entryName.split(/[/\\]/);
  if (parts.includes("..")) throw unsafe('a path that climbs out with ".."');
  // npm strips the first folder, whatever it is called (mostly `package/`).
  const inside = parts.slice(1).filter((part) => part !== "" && part !== ".");
  return inside.length === 0 ? undefined : inside.join("/");
}

/** Counts decompressed bytes and fails past `max`, so a gzip bomb stops early whatever the tar inside says. */
function byteCap(max: number, label: string): TransformStream<Uint8Array, Uint8Array> {
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.byteLength;
      if (total > max)
        controller.error(
          new PackageError("too-large", `${label} unpacks to more than ${mib(max)}, the limit for one package.`),
        );
      else controller.enqueue(chunk);
    },
  });
}

const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function asText(path: string, bytes: Uint8Array): string | undefined {
  if (path.endsWith(".node")) return undefined;
  try {
    return text.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The files of a tarball whose integrity was already verified. `name@version` labels every error.
 * Throws a PackageError: "unsafe-tarball", "too-large", or "bad-package" for an archive that is not a
 * gzipped tar or has no package.json.
 */
export async function unpackTarball(
  tgz: Uint8Array,
  name: string,
  version: string,
  limits: UnpackLimits = DEFAULT_LIMITS,
): Promise<UnpackedPackage> {
  const label = `${name}@${version}`;
  const files = new Map<string, string>();
  const binaries = new Set<string>();
  let bytes = 0;
  let count = 0;
  let binaryChars = 0;
  const maxStream = limits.maxBytes + (limits.maxFiles + 16) * TAR_OVERHEAD_PER_ENTRY;
  const entries = new Blob([tgz as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream("gzip"))
    .pipeThrough(byteCap(maxStream, label))
    .pipeThrough(createTarDecoder());
  try {
    for await (const entry of entries) {
      const { header } = entry;
      const type = header.type ?? "file";
      const path = packagePath(header.name, label);
      if (type === "directory") {
        await entry.body.cancel();
        continue;
      }
      if (type !== "file")
        throw new PackageError(
          "unsafe-tarball",
          `The tarball of ${label} holds ${JSON.stringify(header.name.slice(0, 200))}, a ${type} entry: packages may hold only files and folders, so it was refused.`,
          name,
        );
      if (path === undefined) {
        await entry.body.cancel();
        continue;
      }
      if (!files.has(path) && !binaries.has(path)) count++;
      if (count > limits.maxFiles)
        throw new PackageError(
          "too-large",
          `${label} holds more than ${limits.maxFiles} files, the limit for one package.`,
          name,
        );
      bytes += header.size;
      if (bytes > limits.maxBytes)
        throw new PackageError(
          "too-large",
          `${label} unpacks to more than ${mib(limits.maxBytes)}, the limit for one package.`,
          name,
        );
      const body = new Uint8Array(await new Response(entry.body).arrayBuffer());
      const content = asText(path, body);
      // A later entry of the same path replaces an earlier one, as tar extracts them.
      files.delete(path);
      binaries.delete(path);
      if (content === undefined) {
        binaries.add(path);
        // Binary files are kept by name, in one row with the package's summary (rows hold 2 MB).
        binaryChars += path.length;
        if (binaryChars > MAX_PACKAGE_BINARY_NAME_CHARS)
          throw new PackageError(
            "too-large",
            `${label} holds binary files whose names come to more than ${MAX_PACKAGE_BINARY_NAME_CHARS} characters, the limit for one package.`,
            name,
          );
      } else files.set(path, content);
    }
  } catch (error) {
    if (error instanceof PackageError)
      throw error.packageName ? error : new PackageError(error.kind, error.message, name);
    // The runtime's gzip errors may carry no message: no empty "()" then.
    const detail = error instanceof Error ? error.message : String(error);
    throw new PackageError(
      "bad-package",
      `The tarball of ${label} could not be read as a gzipped tar${detail ? ` (${detail})` : ""}: it is empty, cut short or not a tarball.`,
      name,
    );
  }
  const manifest = files.get("package.json");
  if (manifest === undefined)
    throw new PackageError("bad-package", `The tarball of ${label} has no package.json at its top.`, name);
  const fields = jsonObject(manifest);
  if (!fields)
    throw new PackageError(
      "bad-package",
      `The package.json of ${label} is not a JSON object, so the package cannot be loaded.`,
      name,
    );
  // A lock names a package and its tarball apart: a hand-written lock could load other code under a
  // trusted name (its integrity is that other tarball's own), so the tarball must say it is that package.
  if (fields.name !== name || fields.version !== version)
    throw new PackageError(
      "bad-package",
      `The tarball for ${label} says it is ${JSON.stringify(String(fields.name).slice(0, 214))}@${JSON.stringify(String(fields.version).slice(0, 64))}, so it was refused: a lock must name the package its tarball holds.`,
      name,
    );
  return { files, binaries: [...binaries].sort(), bytes };
}

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const mib = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;
