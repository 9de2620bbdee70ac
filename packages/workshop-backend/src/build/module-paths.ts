/** Paths of isolate modules: relative specifiers between them, as the isolate resolves them. */

export function dirname(path: string): string {
  const at = path.lastIndexOf("/");
  return at === -1 ? "" : path.slice(0, at);
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
