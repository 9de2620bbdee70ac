/**
 * What a visitor should know before forking a shared gadget that asks for secrets: a share's own runs
 * get none, but the fork is the visitor's draft, and its runs get the visitor's secrets of the names the
 * manifest grants — to code someone else wrote.
 */

import { checkManifest, type GadgetFile } from "@gadgets/workshop-shared";
import { grantedSecretNames } from "@gadgets/workshop-shared/schemas";

/** The warning for the share page, or undefined when the gadget grants no secrets (or its manifest does not parse). */
export function forkSecretsNotice(files: readonly GadgetFile[]): string | undefined {
  const manifest = checkManifest(files);
  if (!manifest.ok) return undefined;
  const { inEnv, inHeaders } = grantedSecretNames(manifest.value.grants);
  const names = [...inEnv, ...inHeaders];
  if (names.length === 0) return undefined;
  const hosts = Object.keys(manifest.value.grants.fetch?.headers ?? {});
  const sent = hosts.length > 0 ? ` and sends some to ${hosts.join(", ")}` : "";
  return `This gadget asks for the secrets ${names.join(", ")}${sent}. Its runs here get none, but a fork runs with your workspace's secrets of those names: read its code before you run your copy.`;
}
