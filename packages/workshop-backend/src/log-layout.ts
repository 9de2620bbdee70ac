/**
 * Checks a console line's layout (group depth and label, table columns) as it arrives from an isolate.
 * The harness runs in the gadget's realm, so what it sends is input: anything out of shape is dropped,
 * and the line is shown plain rather than refused.
 */

import type { LogLayout } from "@gadgets/workshop-shared/api";
import { CONSOLE_CAPS, MAX_CONSOLE_GROUP_DEPTH } from "@gadgets/workshop-shared/limits";

/** The layout to keep, or undefined for a plain line at the top level. */
export function sanitizeLogLayout(layout: unknown): LogLayout | undefined {
  if (typeof layout !== "object" || layout === null) return undefined;
  const { depth, group, table } = layout as Record<string, unknown>;
  const checked: LogLayout = {};
  if (Number.isSafeInteger(depth) && (depth as number) > 0)
    checked.depth = Math.min(depth as number, MAX_CONSOLE_GROUP_DEPTH);
  if (group === "open" || group === "collapsed") checked.group = group;
  const columns = typeof table === "object" && table !== null ? (table as { columns?: unknown }).columns : undefined;
  if (Array.isArray(columns) && columns.every((column) => typeof column === "string"))
    checked.table = {
      columns: (columns as string[]).slice(0, CONSOLE_CAPS.maxKeys).map((column) => column.slice(0, 200)),
    };
  return checked.depth !== undefined || checked.group || checked.table ? checked : undefined;
}
