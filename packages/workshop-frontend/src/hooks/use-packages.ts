import { useCallback, useMemo, useSyncExternalStore } from "react";
import { type QueryObserverResult, useQueries, useQuery } from "@tanstack/react-query";
import { type GadgetFile, MANIFEST_PATH, type PackageFileText, type PackageLookup } from "@gadgets/workshop-shared";
import { LOCK_PATH } from "@gadgets/workshop-shared/api";
import { PACKAGE_LOOKUP_SETTLE_MS } from "@gadgets/workshop-shared/limits";
import {
  caretRange,
  declaredDependencies,
  lockState,
  parseLock,
  withDependency,
} from "@gadgets/workshop-shared/dependency-lock";
import type { DraftEditor } from "../drafts/draft-editor.ts";
import { errorMessage } from "../error-message.ts";
import { type UndeclaredImport, undeclaredImports } from "../packages/package-imports.ts";
import { type PackageLookupState, lookupStates } from "../packages/package-lookups.ts";
import { untypedPackagesFile } from "../packages/untyped-packages.ts";
import { lockKeeperOf } from "./use-draft-editor.ts";
import { useSettled } from "./use-settled.ts";
import { useConnectionState, useWorkshop } from "./workshop-context.tsx";

export interface DependencyRow {
  name: string;
  range: string;
  /** The locked version; absent until the lock fits gadget.json. */
  version?: string;
}

export interface PackagesView {
  dependencies: DependencyRow[];
  undeclared: UndeclaredImport[];
  /** Declarations of the locked tree for the editor (paths under node_modules/; untyped ones as `any`). */
  typeFiles: readonly { path: string; content: string }[];
  /** The last resolution's failure, naming the package. */
  problem: string | undefined;
  resolving: boolean;
  /** Each undeclared package's lookup, asked as soon as its import appears; absent while on its way. */
  lookups: ReadonlyMap<string, PackageLookupState>;
  /** Adds `^version` to gadget.json's dependencies; saving locks it. */
  add(name: string, version: string): Promise<void>;
  /** Moves one package to the newest version its range allows, and saves. */
  update(name: string): Promise<void>;
  /** A file of a locked package, read-only (for a stack frame inside node_modules/). */
  openFile(path: string): Promise<PackageFileText>;
}

const NO_TYPES: PackagesView["typeFiles"] = [];
const noKeeper = () => () => {};

/** Dependencies, their lock and their types for the open draft: the quick fix, the panel and Monaco read it. */
export function usePackages(editor: DraftEditor | undefined, files: GadgetFile[]): PackagesView {
  const { connection } = useWorkshop();
  const connected = useConnectionState().status === "connected";
  const keeper = lockKeeperOf(editor);
  const problem = useSyncExternalStore(keeper?.subscribe ?? noKeeper, () => keeper?.problem);
  const resolving = useSyncExternalStore(keeper?.subscribe ?? noKeeper, () => keeper?.resolving ?? false);
  const manifestText = files.find((file) => file.path === MANIFEST_PATH)?.content;
  const lockText = files.find((file) => file.path === LOCK_PATH)?.content;
  const declared = useMemo(
    () =>
      manifestText === undefined ? undefined : declaredDependencies([{ path: MANIFEST_PATH, content: manifestText }]),
    [manifestText],
  );
  const fresh = useMemo(() => lockState(files).status === "fresh", [files]);
  const lock = useMemo(() => (lockText && fresh ? parseLock(lockText) : undefined), [lockText, fresh]);
  const dependencies = useMemo(
    () =>
      Object.entries(declared ?? {}).map(([name, range]) => {
        const version = lock?.packages[`node_modules/${name}`]?.version;
        return version ? { name, range, version } : { name, range };
      }),
    [declared, lock],
  );
  // Only a declared set can be told apart from an undeclared one: a half-typed gadget.json hides the hints.
  const undeclared = useMemo(() => (declared ? undeclaredImports(files, declared) : []), [files, declared]);
  const types = useQuery({
    queryKey: ["package-types", lockText],
    enabled: connected && lock !== undefined && Object.keys(lock.packages).length > 0,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => (await connection.ready()).packageTypes(lockText ?? ""),
  });

  // Asked ahead, so the quick fix is computed synchronously when Monaco asks for it.
  // Joined, so an edit elsewhere (a new `undeclared` array, the same names) does not restart the wait.
  const typedNames = [...new Set(undeclared.map((found) => found.name))].join("\n");
  const settledNames = useSettled(typedNames, PACKAGE_LOOKUP_SETTLE_MS);
  const names = useMemo(() => (settledNames ? settledNames.split("\n") : []), [settledNames]);
  const combine = useCallback((results: QueryObserverResult<PackageLookup>[]) => lookupStates(names, results), [names]);
  const lookups = useQueries({
    queries: names.map((name) => ({
      queryKey: ["package-lookup", name],
      enabled: connected,
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
      queryFn: async () => (await connection.ready()).lookupPackage(name, null),
    })),
    combine,
  });
  const add = useCallback(
    async (name: string, version: string) => {
      const manifest = editor?.file(MANIFEST_PATH);
      if (!editor || !manifest) return;
      try {
        editor.update(MANIFEST_PATH, withDependency(manifest.content, name, caretRange(version)));
      } catch (error) {
        throw new Error(`${MANIFEST_PATH}: ${errorMessage(error)}`);
      }
      await editor.saveNow();
    },
    [editor],
  );
  const update = useCallback(
    async (name: string) => {
      if (!editor || !keeper) return;
      editor.replaceFiles(await keeper.update(editor.files, [name]));
      await editor.saveNow();
    },
    [editor, keeper],
  );
  const openFile = useCallback(
    async (path: string) => (await connection.ready()).packageFile(lockText ?? "", path),
    [connection, lockText],
  );

  // Keyed by the names, not the parsed object: a keystroke in gadget.json must not re-add every lib.
  const dependencyNames = Object.keys(declared ?? {}).join("\n");
  const typeFiles = useMemo(() => {
    const files = types.data?.files ?? NO_TYPES;
    const untyped = untypedPackagesFile(dependencyNames ? dependencyNames.split("\n") : [], files);
    return untyped ? [...files, untyped] : files;
  }, [types.data, dependencyNames]);
  // One object while nothing in it changed: the sidebar and the editor are memoized on it.
  return useMemo(
    () => ({ dependencies, undeclared, typeFiles, problem, resolving, lookups, add, update, openFile }),
    [dependencies, undeclared, typeFiles, problem, resolving, lookups, add, update, openFile],
  );
}
