/**
 * What the registry said about each package an undeclared import names, asked ahead of any Ctrl+.:
 * the editor's quick fix and marker read it synchronously.
 */

import type { PackageLookup } from "@gadgets/workshop-shared";
import { errorMessage } from "../error-message.ts";

export type PackageLookupState = { status: "found"; found: PackageLookup } | { status: "failed"; message: string };

/** One query's answer so far (react-query's result has these two fields). */
export interface LookupAnswer {
  data?: PackageLookup | undefined;
  error?: unknown;
}

/** The answered lookups by name (`answers[i]` is for `names[i]`); a name still on its way is absent. */
export function lookupStates(
  names: readonly string[],
  answers: readonly LookupAnswer[],
): ReadonlyMap<string, PackageLookupState> {
  const states = new Map<string, PackageLookupState>();
  names.forEach((name, index) => {
    const answer = answers[index];
    if (answer?.data) states.set(name, { status: "found", found: answer.data });
    else if (answer?.error) states.set(name, { status: "failed", message: errorMessage(answer.error) });
  });
  return states;
}
