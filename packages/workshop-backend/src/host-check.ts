/**
 * DNS rebinding: a page on evil.test can make its own name resolve to 127.0.0.1 and then talk to the
 * local Workshop as a same-origin page (Origin and Host both evil.test). Locally the Workshop answers
 * only to loopback names and names it was configured with; on Cloudflare (no ALLOWED_HOSTS) the
 * platform routes by Host, so there is nothing to check.
 */

/** The host name of a Host header value, lowercased, without port or IPv6 brackets. */
function hostName(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith("[")) return lower.slice(1, lower.indexOf("]") === -1 ? undefined : lower.indexOf("]"));
  const colon = lower.lastIndexOf(":");
  return colon === -1 ? lower : lower.slice(0, colon);
}

function isLoopbackName(name: string): boolean {
  return (
    name === "localhost" ||
    name.endsWith(".localhost") ||
    name === "::1" ||
    /^127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$/.test(name)
  );
}

/** Whether a request for `host` may be served; `allowedHosts` unset means no check (deployed). */
export function isHostAllowed(
  host: string | undefined,
  allowedHosts: string | undefined,
  allowedOrigins: string | undefined,
): boolean {
  if (allowedHosts === undefined) return true;
  if (!host || host.length > 300) return false;
  const name = hostName(host);
  if (isLoopbackName(name)) return true;
  const listed = allowedHosts.split(",").map((entry) => entry.trim().toLowerCase());
  for (const origin of (allowedOrigins ?? "").split(",")) {
    try {
      listed.push(new URL(origin.trim()).hostname.toLowerCase());
    } catch {
      // not an origin
    }
  }
  return listed.includes(name);
}

export const HOST_REFUSED_MESSAGE =
  "This Workshop does not answer to that host name. Open it at http://localhost or 127.0.0.1, or start it with --allow-host NAME.";
