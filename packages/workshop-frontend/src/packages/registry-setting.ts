/**
 * The workspace's npm registry as the IDE shows it — its URL, whose setting it is, whether a token is
 * kept (the Workshop answers only that, never the token) — and the check of a new one before it is sent.
 */

import type { RegistryInfo, RegistryInput } from "@gadgets/workshop-shared";
import { type Checked, check, RegistryInputSchema } from "@gadgets/workshop-shared/schemas";

export interface RegistryView {
  url: string;
  /** "the Workshop's default" or "this workspace's own". */
  setting: string;
  /** "kept (never shown)" or "none". */
  token: string;
}

export function registryView(info: RegistryInfo): RegistryView {
  return {
    url: info.url,
    setting: info.isDefault ? "the Workshop's default" : "this workspace's own",
    token: info.hasToken ? "kept (never shown)" : "none",
  };
}

/**
 * The URL and token as typed, checked with the Workshop's own schema (and words); an empty token means
 * none. Both are trimmed: a pasted token often brings a line break along.
 */
export function registryEntry(url: string, token: string): Checked<RegistryInput> {
  const trimmedUrl = url.trim();
  const trimmedToken = token.trim();
  if (!trimmedUrl) return { ok: false, error: 'Type the registry\'s URL, like "https://npm.example.com/".' };
  return check(RegistryInputSchema, trimmedToken ? { url: trimmedUrl, token: trimmedToken } : { url: trimmedUrl });
}
