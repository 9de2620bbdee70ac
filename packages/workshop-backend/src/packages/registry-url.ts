/**
 * Which registry URLs the Workshop talks to, and how a package's packument URL is spelled. One rule for
 * the default registry, a workspace's setting and every tarball URL a packument or a lock names: https,
 * and this machine's loopback (plain http too) only when the Workshop allows a registry there (the local
 * host's `--allow-local-fetch`, or `--registry` naming one on this machine); never credentials in the
 * URL (a token is the way).
 */

import { PackageError } from "./package-error.ts";

/** The public npm registry, the default when the Workshop names none. */
export const PUBLIC_NPM_REGISTRY = "https://registry.npmjs.org/";

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** Why the Workshop will not fetch from `text`, or undefined when it may. */
export function registryUrlProblem(text: string, allowLocal: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${JSON.stringify(text.slice(0, 200))} is not a URL: write one like "https://registry.example.com/".`;
  }
  if (url.username || url.password)
    return "A registry URL may not hold a user name or password: give the token apart (setRegistry's token).";
  const local = isLoopback(url.hostname);
  if (local && !allowLocal)
    return `${url.origin} is on this machine: this Workshop does not fetch from local addresses (start it with --allow-local-fetch, or --registry naming a registry on this machine, to use one run beside it).`;
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && local) return undefined;
  return `${url.origin} is not an https URL: the Workshop fetches packages over https only (plain http only from this machine, when the Workshop allows a registry there).`;
}

/** The registry's base URL as requests are built on it: checked, without query or fragment, ending in "/". */
export function registryBase(text: string, allowLocal: boolean): string {
  const problem = registryUrlProblem(text, allowLocal);
  if (problem) throw new PackageError("invalid", problem);
  const url = new URL(text);
  url.search = "";
  url.hash = "";
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url.href;
}

/**
 * The packument's URL: scoped names as `@scope%2fname`, as npm asks for them. `name` is a checked package
 * name (lower case, URL-safe characters only), so the slash is the one character to encode.
 */
export function packumentUrl(base: string, name: string): string {
  return `${base}${name.replace("/", "%2f")}`;
}
