/**
 * The `Session` methods for npm packages: resolving a gadget's dependencies to a lock, looking up a
 * version, declarations for the editor, one package file, and the workspace's registry setting.
 */

import type {
  PackageFileText,
  PackageLookup,
  PackageTypeFiles,
  RegistryInfo,
  RegistryInput,
  ResolveDependenciesInput,
  ResolveOutcome,
} from "@gadgets/workshop-shared/api";
import type { Env } from "../env.ts";
import type { WorkspaceStore } from "../storage/workspace-store.ts";

export interface PackagesContext {
  env: Env;
  workspaceId: string;
  store: DurableObjectStub<WorkspaceStore>;
}

const NOT_YET = "Packages are not available yet.";

export async function resolveDependencies(_context: PackagesContext, _input: unknown): Promise<ResolveOutcome> {
  throw new Error(NOT_YET);
}

export async function lookupPackage(_context: PackagesContext, _name: unknown, _range: unknown): Promise<PackageLookup> {
  throw new Error(NOT_YET);
}

export async function packageTypes(_context: PackagesContext, _lock: unknown): Promise<PackageTypeFiles> {
  throw new Error(NOT_YET);
}

export async function packageFile(_context: PackagesContext, _lock: unknown, _path: unknown): Promise<PackageFileText> {
  throw new Error(NOT_YET);
}

export async function getRegistry(_context: PackagesContext): Promise<RegistryInfo> {
  throw new Error(NOT_YET);
}

export async function setRegistry(_context: PackagesContext, _input: unknown): Promise<RegistryInfo> {
  throw new Error(NOT_YET);
}


