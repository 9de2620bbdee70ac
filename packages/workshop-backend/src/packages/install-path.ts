/**
 * Install paths as npm's lockfile keys them: `node_modules/a`, `node_modules/a/node_modules/@s/b`. The
 * root (the gadget itself) is "". Node's lookup walks from a package's folder up to the root, taking
 * the first `node_modules/<name>` it finds; the resolver places packages by the same walk.
 */

const SEPARATOR = "/node_modules/";

/** Where `name` sits in the node_modules of the package at `parent` ("" for the gadget's own). */
export function childPath(parent: string, name: string): string {
  return parent === "" ? `node_modules/${name}` : `${parent}${SEPARATOR}${name}`;
}

/** The package folder whose node_modules holds `path` ("" for a top-level one). */
export function parentPath(path: string): string {
  const at = path.lastIndexOf(SEPARATOR);
  return at === -1 ? "" : path.slice(0, at);
}

/** The folders Node's lookup tries for `name` from the package at `from`, nearest first. */
export function* lookupPaths(from: string, name: string): Generator<string> {
  let at = from;
  for (;;) {
    yield childPath(at, name);
    if (at === "") return;
    at = parentPath(at);
  }
}
