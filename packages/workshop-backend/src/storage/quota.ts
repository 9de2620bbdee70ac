/** The arithmetic of a workspace's byte quota, kept apart from storage so it is tested on its own. */

import type { WorkspaceUsage } from "@gadgets/workshop-shared/api";
import { WORKSPACE_QUOTA_BYTES } from "@gadgets/workshop-shared/limits";

export type UsageCategory = keyof WorkspaceUsage["bytes"];
export const USAGE_CATEGORIES: readonly UsageCategory[] = ["drafts", "versions", "records", "kv", "shares", "packages"];

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Why a write that grows the workspace by `growth` bytes is refused, or undefined when it fits.
 * Writes that shrink it (or keep its size) always fit, so a full workspace can always be tidied.
 */
export function quotaRefusal(
  usedBytes: number,
  growth: number,
  quotaBytes = WORKSPACE_QUOTA_BYTES,
  byCategory?: Readonly<Record<UsageCategory, number>>,
): string | undefined {
  if (growth <= 0 || usedBytes + growth <= quotaBytes) return undefined;
  // What takes the room, largest first: the person can see whether deleting drafts would help.
  const parts = byCategory
    ? ` (${USAGE_CATEGORIES.filter((category) => byCategory[category] > 0)
        .sort((a, b) => byCategory[b] - byCategory[a])
        .map((category) => `${category} ${megabytes(byCategory[category])}`)
        .join(", ")})`
    : "";
  return `This workspace's storage quota is full: it stores ${megabytes(usedBytes)} of ${megabytes(quotaBytes)}${parts}, and this would add ${megabytes(growth)}. Nothing was saved. Delete drafts you no longer need (their kv data goes with them), then try again.`;
}
