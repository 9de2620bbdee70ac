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

/** An IPv4 literal's four numbers (the URL parser already turned `127.1` and `0x7f000001` into dotted form). */
function ipv4(host: string): number[] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (match) return match.slice(1).map(Number);
  // IPv4-mapped IPv6 (`[::ffff:127.0.0.1]` is spelled `[::ffff:7f00:1]` by the URL parser).
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (!mapped) return undefined;
  const high = Number.parseInt(mapped[1] as string, 16);
  const low = Number.parseInt(mapped[2] as string, 16);
  return [high >> 8, high & 255, low >> 8, low & 255];
}

function isLoopback(hostname: string): boolean {
  // A trailing dot names the same host (`localhost.`).
  const host = hostname.toLowerCase().replace(/\.$/, "");
  const v4 = ipv4(host);
  // 0.0.0.0 and [::] reach this machine too when connected to.
  if (v4) return v4[0] === 127 || v4[0] === 0;
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || host === "[::]";
}

/**
 * A private or link-local address literal (RFC 1918, carrier NAT, link-local with cloud metadata at
 * 169.254.169.254, IPv6 unique-local and link-local): never a registry's, refused before any request
 * (the network a deployment runs on may reach them; names resolving there are the network's to refuse).
 */
function isPrivateAddress(hostname: string): boolean {
  const host = hostname.toLowerCase();
  const v4 = ipv4(host);
  if (v4) {
    const [a, b] = v4 as [number, number];
    return (
      a === 10 ||
      (a === 172 && b >= 16 && b < 32) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b < 128)
    );
  }
  return /^\[f[cd][0-9a-f]{0,2}:/.test(host) || /^\[fe[89ab][0-9a-f]?:/.test(host);
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
  if (isPrivateAddress(url.hostname))
    return `${url.origin} is a private network address: the Workshop fetches packages from public registries (and from this machine's loopback, when it allows a registry there).`;
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
