/**
 * A package problem inside the backend: thrown between the package modules (registry, resolver, tarball,
 * store) and turned into a `ResolveOutcome` error at the RPC boundary, never thrown across it.
 */

import type { PackageErrorKind, ResolveOutcome } from "@gadgets/workshop-shared/api";

export class PackageError extends Error {
  constructor(
    readonly kind: PackageErrorKind,
    message: string,
    /** The package at fault, when there is one. */
    readonly packageName?: string,
  ) {
    super(message);
    this.name = "PackageError";
  }
}

export type PackageFailure = Extract<ResolveOutcome, { status: "error" }>;

/** The outcome a package problem answers with; anything else is not a package problem and is thrown on. */
export function packageFailure(error: unknown): PackageFailure {
  if (!(error instanceof PackageError)) throw error;
  return {
    status: "error",
    kind: error.kind,
    ...(error.packageName === undefined ? {} : { package: error.packageName }),
    message: error.message,
  };
}
