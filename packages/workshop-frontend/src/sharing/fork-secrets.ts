/**
 * What a visitor should know before forking a gadget that asks for secrets, from a share (`/s/`) or a
 * run record (`/r/`): runs there get none, and a fork does not bring the author's either. The fork is
 * the visitor's draft, so its runs get the visitor's secrets of the names the manifest grants, and its
 * code may send them to any host it is granted to fetch: name both.
 */

import { checkManifest, type GadgetFile } from "@gadgets/workshop-shared";
import { grantedSecretNames } from "@gadgets/workshop-shared/schemas";

/** The warning beside Fork, or undefined when the gadget grants no secrets (or its manifest does not parse). */
export function forkSecretsNotice(files: readonly GadgetFile[]): string | undefined {
  const manifest = checkManifest(files);
  if (!manifest.ok) return undefined;
  const { fetch } = manifest.value.grants;
  const { inEnv, inHeaders } = grantedSecretNames(manifest.value.grants);
  const names = [...inEnv, ...inHeaders].join(", ");
  if (names === "") return undefined;
  // Header grants only name granted hosts, so the hosts list covers where secrets can go either way.
  const withHeaders = new Set(Object.keys(fetch?.headers ?? {}));
  const hosts = (fetch?.hosts ?? []).map((host) =>
    withHeaders.has(host) ? `${host} (with secrets in the headers)` : host,
  );
  const reach = hosts.length > 0 ? ` and may fetch from ${hosts.join(", ")}` : "";
  return `This gadget asks for the secrets ${names}${reach}. Its runs here get none, and a fork does not bring the author's: set ${names} in your workspace (Manage secrets…) to run your copy. Your copy runs with your secrets, so read its code first.`;
}
