/**
 * Browser sessions must come from the Workshop's own origin (or one configured): capnweb accepts
 * any origin, and a page elsewhere must not ride on a visitor's connection. Clients that send no
 * Origin (Node backends, CLIs) are not browsers and authenticate with their token.
 */
export function isOriginAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowedList: string | undefined,
): boolean {
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (host !== undefined && parsed.host === host) return true;
  const allowed = (allowedList ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return allowed.includes(parsed.origin);
}
