/**
 * `console.group` in the panel: a group's label heads the lines after it that sit deeper (its run's
 * nesting travels with every line), and a closed group hides them. Runs, and the agents a run called,
 * nest on their own, so their lines may interleave without joining each other's groups.
 */

/** What grouping reads of a console line; other entries (errors, calls, a run's end) belong to no group. */
export interface GroupedLine {
  kind: "log";
  runId: string;
  depth?: number;
  group?: "open" | "collapsed";
  from?: { runId: string };
}

interface OpenGroup {
  depth: number;
  /** This group or one around it is closed: its lines are hidden. */
  hides: boolean;
}

/** Whose nesting a line follows: its run, or the called agent's run it came from. */
const nestingOf = (entry: GroupedLine) => `${entry.runId} ${entry.from?.runId ?? ""}`;

/**
 * The entries a reader sees when the groups `isClosed` says are closed hide their lines. Lines other
 * than console lines (errors, calls, a run's end) are never hidden: they are not part of any group.
 */
export function withoutClosedGroups<E extends { kind: string }>(
  entries: readonly E[],
  isClosed: (entry: E & GroupedLine) => boolean,
): E[] {
  const open = new Map<string, OpenGroup[]>();
  const shown: E[] = [];
  for (const entry of entries) {
    if (!isGroupedLine(entry)) {
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

function isGroupedLine<E extends { kind: string }>(entry: E): entry is E & GroupedLine {
  return entry.kind === "log";
}
