/**
 * A dependency with no declarations of its own and no `@types/…` still runs, but the editor holds only
 * declaration files, never a package's JavaScript, so TypeScript would call its import an error
 * ("Cannot find module"). Each such dependency gets a shorthand ambient module instead
 * (`declare module "x";`, its imports typed `any`), as an editor beside an installed package does
 * without `noImplicitAny`.
 */

export interface TypeFile {
  path: string;
  content: string;
}

/** Where the shorthand declarations live among the editor's extra libs (outside node_modules/). */
export const UNTYPED_PACKAGES_PATH = "untyped-packages.d.ts";

const DECLARATION = /\.d\.[cm]?ts$/;

// `@types/scope__name` holds the types of `@scope/name` (DefinitelyTyped's naming).
const typesPackageOf = (name: string) => `@types/${name.startsWith("@") ? name.slice(1).replace("/", "__") : name}`;

/** The declaration file for the dependencies `typeFiles` has no types for; undefined when all have some. */
export function untypedPackagesFile(
  dependencies: readonly string[],
  typeFiles: readonly TypeFile[],
): TypeFile | undefined {
  const untyped = dependencies.filter((name) => {
    const roots = [`node_modules/${name}/`, `node_modules/${typesPackageOf(name)}/`];
    return !typeFiles.some((file) => DECLARATION.test(file.path) && roots.some((root) => file.path.startsWith(root)));
  });
  if (untyped.length === 0) return undefined;
  const lines = untyped.flatMap((name) => [
    `declare module ${JSON.stringify(name)};`,
    `declare module ${JSON.stringify(`${name}/*`)};`,
  ]);
  return { path: UNTYPED_PACKAGES_PATH, content: `${lines.join("\n")}\n` };
}
