/** Paths of isolate modules: relative specifiers between them, as the isolate resolves them. */

export function dirname(path: string): string {
  const at = path.lastIndexOf("/");
  return at === -1 ? "" : path.slice(0, at);
}

/** `base` joined with a relative path; undefined when it would climb above `base`'s root (a gadget, a package). */
export function joinInside(base: string, relative: string): string | undefined {
  const parts = base ? base.split("/") : [];
  for (const segment of relative.split("/")) {
    if (segment === "." || segment === "") continue;
    if (segment === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join("/");
}

/** The specifier that module `fromModule` imports `toModule` by (`./x.js`, `../node_modules/a/b.js`). */
export function relativeSpecifier(fromModule: string, toModule: string): string {
  const from = dirname(fromModule).split("/").filter(Boolean);
  const to = toModule.split("/");
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.length - common;
  const rest = to.slice(common).join("/");
  return up === 0 ? `./${rest}` : `${"../".repeat(up)}${rest}`;
}
