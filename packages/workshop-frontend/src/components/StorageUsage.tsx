import { describeUsage } from "../drafts/usage-text.ts";
import { useUsage } from "../hooks/use-usage.ts";

/** One line under the drafts: how much of the workspace's storage quota is used. */
export function StorageUsage() {
  const usage = useUsage();
  if (!usage.data) return null;
  const { text, detail, nearlyFull } = describeUsage(usage.data);
  return (
    <p
      data-testid="storage-usage"
      title={detail}
      className={`px-3 py-1 text-xs ${nearlyFull ? "text-amber-700 dark:text-amber-400" : "text-zinc-600 dark:text-zinc-400"}`}
    >
      {text}
      {nearlyFull && " — nearly full: delete drafts you no longer need"}
    </p>
  );
}
