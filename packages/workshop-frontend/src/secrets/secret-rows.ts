/**
 * Workspace secrets as the IDE shows them: the Secrets dialog's rows (name, size, when set, which agents
 * use it — never a value, which the Workshop never returns), the check of a new secret before it is sent,
 * and what the Grants panel says a manifest's grants use.
 */

import type { GadgetGrants, SecretInfo } from "@gadgets/workshop-shared";
import {
  type Checked,
  check,
  grantedSecretNames,
  SecretNameSchema,
  SecretValueSchema,
  templatePlaceholders,
} from "@gadgets/workshop-shared/schemas";
import { ago } from "../problems/problems.ts";

export interface SecretRow {
  name: string;
  size: string;
  set: string;
  usedBy: string;
}

const size = (bytes: number) => (bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`);

/** One row per secret, by name; `now` for "set 3 min ago". */
export function secretRows(secrets: readonly SecretInfo[], now: number): SecretRow[] {
  return [...secrets]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((secret) => ({
      name: secret.name,
      size: size(secret.bytes),
      set: `set ${ago(secret.updatedAt, now)}`,
      usedBy: secret.usedBy.length > 0 ? `used by ${secret.usedBy.join(", ")}` : "no published agent uses it",
    }));
}

/** What is wrong with a secret about to be set (the Workshop's own words), or undefined. */
export function secretInputProblem(name: string, value: string): string | undefined {
  const checkedName = check(SecretNameSchema, name);
  if (!checkedName.ok) return checkedName.error;
  const checkedValue = check(SecretValueSchema, value);
  return checkedValue.ok ? undefined : checkedValue.error;
}

/** A secret as typed, its name trimmed, checked as `secretInputProblem` checks it: what to send, or the problem. */
export function secretEntry(name: string, value: string): Checked<{ name: string; value: string }> {
  const trimmed = name.trim();
  const problem = secretInputProblem(trimmed, value);
  return problem ? { ok: false, error: problem } : { ok: true, value: { name: trimmed, value } };
}

/** A secret a manifest's grants use, as the Grants panel lists it. */
export interface GrantedSecret {
  name: string;
  /** `env.secrets.NAME`, or the header and host it is filled into. */
  where: string;
  /** False when the workspace has no secret by that name (runs then go without it); undefined while unknown. */
  isSet: boolean | undefined;
}

/** Every secret the grants name, with where it goes and whether it is set (`known`: the listed names, when loaded). */
export function grantedSecrets(grants: GadgetGrants, known: ReadonlySet<string> | undefined): GrantedSecret[] {
  const { inEnv } = grantedSecretNames(grants);
  const rows: GrantedSecret[] = inEnv.map((name) => ({ name, where: `env.secrets.${name}`, isSet: known?.has(name) }));
  for (const [host, headers] of Object.entries(grants.fetch?.headers ?? {}))
    for (const [header, template] of Object.entries(headers)) {
      const placeholders = templatePlaceholders(template);
      for (const name of new Set(placeholders.ok ? placeholders.names : []))
        rows.push({ name, where: `${header} header for ${host}`, isSet: known?.has(name) });
    }
  return rows;
}

/** Names typed into the Grants panel, one per line or comma-separated. */
export function secretNameList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((name) => name.trim())
    .filter(Boolean);
}
