/** How the IDE words a workspace's storage use against its quota. */

import type { WorkspaceUsage } from "@gadgets/workshop-shared";

/** From this share of the quota on, the IDE warns before writes start to fail. */
const NEARLY_FULL = 0.9;

/** "0.7 KB" below a megabyte (a few drafts), "3.2 MB" above. */
function size(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function describeUsage(usage: WorkspaceUsage): { text: string; detail: string; nearlyFull: boolean } {
  const { bytes } = usage;
  return {
    text: `Storage: ${size(usage.usedBytes)} of ${size(usage.quotaBytes)}`,
    detail: `drafts ${size(bytes.drafts)}, published versions ${size(bytes.versions)}, run records ${size(bytes.records)}, kv ${size(bytes.kv)}, shares ${size(bytes.shares)}${bytes.packages ? `, packages ${size(bytes.packages)}` : ""}`,
    nearlyFull: usage.usedBytes >= usage.quotaBytes * NEARLY_FULL,
  };
}
