/**
 * A gadget that calls the global `fetch()` gets workerd's own refusal ("This worker is not permitted to
 * access the internet via global functions like fetch()…"), which says nothing of the Workshop. This
 * turns it into what to do — use `env.fetch` and grant the host — and makes that a one-click edit.
 */

import { type GadgetFile, MANIFEST_PATH } from "@gadgets/workshop-shared";

/** workerd's words when an isolate without network access calls `fetch` or `connect`. */
const GLOBAL_FETCH_REFUSED = /not permitted to access the internet/i;

/** A call of the global `fetch` (not `env.fetch`, `x.fetch`, `prefetch`). */
const GLOBAL_FETCH_CALL = /(?<![\w$.])fetch\s*\(/g;
/** Its first argument, when it is a literal URL: the host to grant. */
const LITERAL_URL = /(?<![\w$.])fetch\s*\(\s*["'`](https?:\/\/[^"'`\s]+)/;
/** `run(payload, env)`: the file's run has `env` in scope, so `fetch(` can become `env.fetch(`. */
const RUN_WITH_ENV = /\brun\s*\([^)]*,\s*env\b/;

const isCode = (path: string) => /\.(ts|m?js)$/.test(path);

export interface FetchHint {
  text: string;
  /** The host the code fetches from, when a literal URL names it: the one-click grant's. */
  host?: string;
}

/** What to tell the person when a run failed with workerd's refusal of the global `fetch`. */
export function globalFetchHint(message: string, files: readonly GadgetFile[]): FetchHint | undefined {
  if (!GLOBAL_FETCH_REFUSED.test(message)) return undefined;
  let host: string | undefined;
  for (const file of files) {
    const url = isCode(file.path) ? LITERAL_URL.exec(file.content)?.[1] : undefined;
    if (url === undefined) continue;
    try {
      host = new URL(url.replace(/\$\{.*$/, "")).host || undefined;
    } catch {
      // A template literal's host part is not known until it runs.
    }
    if (host) break;
  }
  return {
    text: "A gadget has no network of its own: the global fetch() is refused. Call env.fetch(…) instead, and grant the host under Grants (gadget.json: grants.fetch.hosts).",
    ...(host ? { host } : {}),
  };
}

export interface FetchGrantEdit {
  /** The files to write: gadget.json, and each code file whose `fetch(` calls became `env.fetch(`. */
  updates: GadgetFile[];
  /** Code files that call the global `fetch` without `env` in scope: the person changes those. */
  leftAlone: string[];
}

/**
 * Grants `host` in the manifest (keeping what else it grants) and turns the global `fetch(` calls into
 * `env.fetch(` in every file whose `run` has `env`; undefined when the manifest is not JSON.
 */
export function grantFetchEdit(files: readonly GadgetFile[], host: string): FetchGrantEdit | undefined {
  const manifestFile = files.find((file) => file.path === MANIFEST_PATH);
  let manifest: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(manifestFile?.content ?? "");
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    manifest = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const grants = (typeof manifest.grants === "object" && manifest.grants !== null ? manifest.grants : {}) as Record<
    string,
    unknown
  >;
  const fetchGrant = (typeof grants.fetch === "object" && grants.fetch !== null ? grants.fetch : {}) as Record<
    string,
    unknown
  >;
  const hosts = Array.isArray(fetchGrant.hosts) ? fetchGrant.hosts.map(String) : [];
  const granted = {
    ...manifest,
    grants: { ...grants, fetch: { ...fetchGrant, hosts: [...new Set([...hosts, host])] } },
  };
  const updates: GadgetFile[] = [{ path: MANIFEST_PATH, content: `${JSON.stringify(granted, null, 2)}\n` }];
  const leftAlone: string[] = [];
  for (const file of files) {
    if (!isCode(file.path) || !GLOBAL_FETCH_CALL.test(file.content)) continue;
    GLOBAL_FETCH_CALL.lastIndex = 0;
    if (RUN_WITH_ENV.test(file.content))
      updates.push({ path: file.path, content: file.content.replace(GLOBAL_FETCH_CALL, "env.fetch(") });
    else leftAlone.push(file.path);
  }
  return { updates, leftAlone };
}
