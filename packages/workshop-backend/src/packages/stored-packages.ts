/**
 * The Worker's side of the package store: which object holds a package, writing one (parts, then the
 * commit that makes it visible) and reading it back. Packages of the Workshop's default registry live
 * in shared objects, sharded by integrity, stored once for every workspace; packages of a workspace's
 * own registry live in that workspace's object only (its name holds the workspace id), which no other
 * workspace ever opens. Content-addressed by integrity, so a shared copy can only ever be the bytes
 * the integrity names.
 */

import type { LockedPackage } from "@gadgets/workshop-shared/api";
import { SHARED_PACKAGE_SHARD_BYTES } from "@gadgets/workshop-shared/limits";
import { hasOwnTypes } from "./declarations.ts";
import { PackageError } from "./package-error.ts";
import type { UnpackedPackage } from "./tarball.ts";
import type { FilePage, FilePart, StoredPackageInfo } from "./package-table.ts";

/** What the Worker asks of one store object (a Durable Object stub, or a table in tests). */
export interface PackageStoreObject {
  info(integrity: string): Promise<StoredPackageInfo | undefined>;
  putParts(integrity: string, parts: FilePart[]): Promise<void>;
  /** `keepBytes`: a shared shard's room, made by dropping its least recently used packages (package-table.ts). */
  commit(integrity: string, info: StoredPackageInfo, expectedParts: number, keepBytes?: number): Promise<void>;
  /** Removes the parts of a write that never committed. */
  discard(integrity: string): Promise<void>;
  read(
    integrity: string,
    after: { path: string; part: number } | undefined,
    maxChars: number,
  ): Promise<FilePage | undefined>;
  file(integrity: string, path: string): Promise<string | undefined>;
}

/** Opens a store object by name (`env.PACKAGES` by name in the Worker). */
export type OpenPackageStore = (objectName: string) => PackageStoreObject;

/** Characters in one stored part: at most 3 bytes each in UTF-8 (4 per surrogate pair), so under 2 MB. */
export const PART_CHARS = 512 * 1024;
/** Characters sent to the store in one call, and read back in one page: well within one RPC message. */
export const BATCH_CHARS = 4 * 1024 * 1024;
/** Shards of the shared store: spreads reads and writes of the whole Workshop over objects. */
const SHARED_SHARDS = 16;

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

export function sharedObjectName(integrity: string): string {
  const digit = BASE64.indexOf(integrity.charAt("sha512-".length));
  return `shared:${Math.max(0, digit) % SHARED_SHARDS}`;
}

export function workspaceObjectName(workspaceId: string): string {
  return `workspace:${workspaceId}`;
}

/** A file's text in parts of at most `size` characters, never splitting a surrogate pair. */
export function splitParts(text: string, size = PART_CHARS): string[] {
  if (text.length <= size) return [text];
  const parts: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(at + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    parts.push(text.slice(at, end));
    at = end;
  }
  return parts;
}

export interface StoredFiles {
  files: Map<string, string>;
  binaries: string[];
  info: StoredPackageInfo;
}

export class StoredPackages {
  constructor(
    private readonly open: OpenPackageStore,
    private readonly workspaceId: string,
  ) {}

  /**
   * The objects a package may be in, in order: a workspace-registry package in the workspace's object
   * (then the shared one: the same integrity is the same bytes); a default-registry one in a shared one.
   * The first is where a newly fetched package is written: never a shared object when it came from the
   * workspace's own registry.
   */
  objectNamesFor(entry: LockedPackage, privateRegistry: boolean): [string, ...string[]] {
    const shared = sharedObjectName(entry.integrity);
    return this.forWorkspace(entry, privateRegistry) ? [workspaceObjectName(this.workspaceId), shared] : [shared];
  }

  /** Whether a newly fetched package is written to the workspace's own object (and so charged to it). */
  forWorkspace(entry: LockedPackage, privateRegistry: boolean): boolean {
    return entry.private === true || privateRegistry;
  }

  writeTarget(entry: LockedPackage, privateRegistry: boolean): PackageStoreObject {
    return this.open(this.objectNamesFor(entry, privateRegistry)[0]);
  }

  async find(
    entry: LockedPackage,
    privateRegistry: boolean,
  ): Promise<{ object: PackageStoreObject; info: StoredPackageInfo } | undefined> {
    for (const name of this.objectNamesFor(entry, privateRegistry)) {
      const object = this.open(name);
      const info = await object.info(entry.integrity);
      if (info) return { object, info };
    }
    return undefined;
  }

  /** Writes a verified, unpacked package; visible only once every part is in. */
  async write(entry: LockedPackage, privateRegistry: boolean, unpacked: UnpackedPackage): Promise<StoredPackageInfo> {
    const object = this.writeTarget(entry, privateRegistry);
    let batch: FilePart[] = [];
    let chars = 0;
    let count = 0;
    for (const path of [...unpacked.files.keys()].sort()) {
      const parts = splitParts(unpacked.files.get(path) as string);
      for (const [index, content] of parts.entries()) {
        if (batch.length > 0 && chars + content.length > BATCH_CHARS) {
          await object.putParts(entry.integrity, batch);
          batch = [];
          chars = 0;
        }
        batch.push([path, index, content]);
        chars += content.length;
        count++;
      }
    }
    if (batch.length > 0) await object.putParts(entry.integrity, batch);
    const info: StoredPackageInfo = {
      name: entry.name,
      version: entry.version,
      files: unpacked.files.size,
      bytes: unpacked.bytes,
      binaries: unpacked.binaries,
      types: hasOwnTypes(JSON.parse(unpacked.files.get("package.json") ?? "{}"), unpacked.files.keys()),
    };
    const shared = !this.forWorkspace(entry, privateRegistry);
    await object.commit(entry.integrity, info, count, shared ? SHARED_PACKAGE_SHARD_BYTES : undefined);
    return info;
  }

  /** Every text file of a package just stored, read a page at a time. */
  async read(object: PackageStoreObject, entry: LockedPackage, info: StoredPackageInfo): Promise<StoredFiles> {
    const first = await object.read(entry.integrity, undefined, BATCH_CHARS);
    const files = first && (await readPages(object, entry, first));
    if (!files)
      throw new PackageError(
        "storage-full",
        `"${entry.name}" ${entry.version} was dropped from the Workshop's package store as it was read, to make room for others. Run again.`,
        entry.name,
      );
    return { files, binaries: info.binaries, info };
  }

  /**
   * A stored package's files, or undefined when none of its objects holds it (or a full shard dropped it
   * while it was read): the first page comes with the package's info, so a stored package costs one call
   * per page and no lookup before.
   */
  async load(entry: LockedPackage, privateRegistry: boolean): Promise<StoredFiles | undefined> {
    for (const name of this.objectNamesFor(entry, privateRegistry)) {
      const object = this.open(name);
      const first = await object.read(entry.integrity, undefined, BATCH_CHARS);
      if (!first?.info) continue;
      const files = await readPages(object, entry, first);
      if (files) return { files, binaries: first.info.binaries, info: first.info };
    }
    return undefined;
  }
}

/** The files of a package from its first page on; undefined when it was dropped before its last page. */
async function readPages(
  object: PackageStoreObject,
  entry: LockedPackage,
  first: FilePage,
): Promise<Map<string, string> | undefined> {
  const files = new Map<string, string>();
  let page = first;
  for (;;) {
    for (const [path, part, content] of page.parts)
      files.set(path, part === 0 ? content : `${files.get(path) ?? ""}${content}`);
    if (!page.next) return files;
    const next = await object.read(entry.integrity, page.next, BATCH_CHARS);
    if (!next) return undefined;
    page = next;
  }
}
