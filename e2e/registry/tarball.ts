/**
 * npm tarballs made at test time: a fixture folder packed as `npm pack` lays it out (every file under
 * `package/`), or entries given one by one — which is how the unsafe ones (`../`, absolute paths,
 * symlinks, hard links) are crafted, since no packer would write them. tar-stream writes headers as told.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { gzipSync } from "node:zlib";
import { pack } from "tar-stream";

export type TarEntry =
  | { type: "file"; name: string; content: string | Uint8Array; mode?: number }
  | { type: "directory"; name: string }
  | { type: "symlink"; name: string; linkname: string }
  | { type: "link"; name: string; linkname: string };

// A fixed time keeps a fixture's bytes, and so its integrity, the same on every run.
const MTIME = new Date("2024-01-01T00:00:00Z");

/** A gzipped tar of exactly these entries, in this order. */
export async function tarball(entries: readonly TarEntry[]): Promise<Uint8Array> {
  const packer = pack();
  const chunks: Uint8Array[] = [];
  const done = new Promise<void>((finished, failed) => {
    // tar-stream types its chunks as unknown; they are Buffers.
    packer.on("data", (chunk: unknown) => chunks.push(chunk as Uint8Array));
    packer.on("end", () => finished());
    packer.on("error", failed);
  });
  for (const entry of entries) {
    if (entry.type === "file") {
      const content = typeof entry.content === "string" ? Buffer.from(entry.content) : Buffer.from(entry.content);
      packer.entry({ name: entry.name, mode: entry.mode ?? 0o644, mtime: MTIME }, content);
    } else if (entry.type === "directory") {
      packer.entry({ name: entry.name, type: "directory", mode: 0o755, mtime: MTIME });
    } else {
      packer.entry({ name: entry.name, type: entry.type, linkname: entry.linkname, mode: 0o644, mtime: MTIME });
    }
  }
  packer.finalize();
  await done;
  return new Uint8Array(gzipSync(Buffer.concat(chunks)));
}

/** Every file of `dir` (sorted, so the bytes are stable) as `package/<path>` entries. */
export function folderEntries(dir: string): TarEntry[] {
  return listFiles(dir).map((path) => ({
    type: "file",
    name: `package/${relative(dir, path).split(sep).join("/")}`,
    content: readFileSync(path),
  }));
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? listFiles(path) : entry.isFile() ? [path] : [];
    });
}
