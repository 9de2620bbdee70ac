/**
 * `console.group` in the panel: a group's label heads the lines after it that sit deeper (its run's
 * nesting travels with every line), and a closed group hides them. Runs, and the agents a run called,
 * nest on their own, so their lines may interleave without joining each other's groups.
 */

import type { ConsoleEntry } from "./console-store.ts";

interface OpenGroup {
  depth: number;
  /** This group or one around it is closed: its lines are hidden. */
  hides: boolean;
}

/** Whose nesting a line follows: its run, or the called agent's run it came from. */
const nestingOf = (entry: ConsoleEntry & { kind: "log" }) => `${entry.runId} ${entry.from?.runId ?? ""}`;

/**
 * The entries a reader sees when the groups `isClosed` says are closed hide their lines. Lines other
 * than console lines (errors, calls, a run's end) are never hidden: they are not part of any group.
 */
export function withoutClosedGroups(
  entries: readonly ConsoleEntry[],
  isClosed: (entry: ConsoleEntry & { kind: "log" }) => boolean,
): ConsoleEntry[] {
  const open = new Map<string, OpenGroup[]>();
  const shown: ConsoleEntry[] = [];
  for (const entry of entries) {
    if (entry.kind !== "log") {
      shown.push(entry);
      continue;
    }
    const depth = entry.depth ?? 0;
    const key = nestingOf(entry);
    const groups = open.get(key) ?? [];
    // A line no deeper than a group's label is past that group's end.
    while (groups.length > 0 && (groups.at(-1)?.depth ?? 0) >= depth) groups.pop();
    const hidden = groups.at(-1)?.hides ?? false;
    if (!hidden) shown.push(entry);
    if (entry.group) groups.push({ depth, hides: hidden || isClosed(entry) });
    open.set(key, groups);
  }
  return shown;
}
