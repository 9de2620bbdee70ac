/**
 * "Run again" on a run record runs anonymously, and anonymous runs get no capabilities. So a recorded
 * run that used any cannot be replayed as it ran: say so before the person presses the button.
 */

import { checkManifest, type SharedRunRecord } from "@gadgets/workshop-shared";

/**
 * The capabilities the recorded run used (its trace) or could use (its grants), in the order shown;
 * fetch with the hosts it was granted, as the fork notice names them, so the visitor sees what will fail.
 */
export function unreplayableCapabilities(record: Pick<SharedRunRecord, "files" | "trace">): string[] {
  const used = new Set(record.trace?.spans.map((span) => span.kind));
  const manifest = checkManifest(record.files);
  const grants = manifest.ok ? (manifest.value.grants ?? {}) : {};
  const found: string[] = [];
  const hosts = grants.fetch?.hosts ?? [];
  if (hosts.length > 0) found.push(`fetch (${hosts.join(", ")})`);
  else if (used.has("fetch")) found.push("fetch");
  if (used.has("kv") || grants.kv === true) found.push("kv");
  if (used.has("catalog") || grants.catalog === true) found.push("catalog");
  if ((grants.secrets?.length ?? 0) > 0 || Object.keys(grants.fetch?.headers ?? {}).length > 0) found.push("secrets");
  return found;
}

/** The notice beside Run again, or undefined when the run can be replayed as it ran. */
export function replayNotice(capabilities: readonly string[]): string | undefined {
  if (capabilities.length === 0) return undefined;
  return `This run used ${capabilities.join(", ")}. Run again runs without capabilities (anyone can press it), so those calls will fail: fork it to run it with them in your workspace.`;
}
