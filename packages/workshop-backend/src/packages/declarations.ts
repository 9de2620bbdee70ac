/**
 * Which files of a package an editor needs for its types, and whether a package has types of its own
 * (`types`/`typings`, a "types" condition in `exports`, `typesVersions`, or an `index.d.ts` beside its
 * `main`, as TypeScript looks for them). A package without any gets `@types/<name>` added to the lock.
 */

const DECLARATION = /\.d\.(?:ts|mts|cts)$/;

export function isDeclarationFile(path: string): boolean {
  return DECLARATION.test(path);
}

function mentionsTypesCondition(value: unknown, depth = 0): boolean {
  if (depth > 16 || typeof value !== "object" || value === null) return false;
  return Object.entries(value).some(([key, inner]) => key === "types" || mentionsTypesCondition(inner, depth + 1));
}

/** Whether TypeScript finds declarations in the package itself. */
export function hasOwnTypes(packageJson: unknown, paths: Iterable<string>): boolean {
  const manifest =
    typeof packageJson === "object" && packageJson !== null ? (packageJson as Record<string, unknown>) : {};
  if (typeof manifest.types === "string" || typeof manifest.typings === "string") return true;
  if (manifest.typesVersions !== undefined || mentionsTypesCondition(manifest.exports)) return true;
  const main =
    typeof manifest.main === "string" ? manifest.main.replace(/^\.\//, "").replace(/\.[cm]?js$/, "") : "index";
  const beside = new Set([`${main}.d.ts`, `${main}/index.d.ts`, "index.d.ts"]);
  for (const path of paths) if (beside.has(path)) return true;
  return false;
}

/** `@types/<name>` for a package name (`@scope/name` → `@types/scope__name`, DefinitelyTyped's rule). */
export function typesPackageName(name: string): string {
  return `@types/${name.startsWith("@") ? name.slice(1).replace("/", "__") : name}`;
}

/** The ranges of `@types/<name>` to try for a package version, best first: same major.minor, same major, any. */
export function typesRanges(version: string): string[] {
  const [major, minor] = version.split(".");
  return [`~${major}.${minor}.0`, `^${major}.0.0`, "*"];
}
