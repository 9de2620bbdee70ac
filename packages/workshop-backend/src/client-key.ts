/**
 * Who a request comes from, for keyed limits. On Cloudflare the edge sets CF-Connecting-IP (a client
 * cannot forge it there); an IPv6 client is keyed by its /64. Locally workerd reports the peer as
 * `request.cf.clientIp` ("127.0.0.1:port"): every local client is this machine, so the key is one TCP
 * connection. The local value is read first,
 * so a local client cannot pick its own key with a forged header — unless the Workshop was told it is
 * behind a reverse proxy (`--trust-proxy`), which then names the client in X-Forwarded-For.
 */
export function clientKey(request: Request, env: { TRUST_PROXY?: string }): string {
  const local = (request as Request & { cf?: { clientIp?: unknown } }).cf?.clientIp;
  if (typeof local === "string" && local) {
    // Behind a reverse proxy every client is the proxy's connection: the address it added last is the client's.
    const forwarded = env.TRUST_PROXY === "1" ? lastForwarded(request) : undefined;
    return forwarded ? `ip:${addressKey(forwarded)}` : `peer:${local.slice(0, 64)}`;
  }
  const edge = request.headers.get("CF-Connecting-IP");
  return edge ? `ip:${addressKey(edge.slice(0, 64))}` : "unknown";
}

/** The last address in X-Forwarded-For (the one the proxy in front added), or undefined. */
function lastForwarded(request: Request): string | undefined {
  const header = request.headers.get("X-Forwarded-For");
  const last = header?.slice(header.lastIndexOf(",") + 1).trim();
  return last ? last.slice(0, 64) : undefined;
}

/**
 * The part of an address one client holds: an IPv4 address whole, an IPv6 one by its /64 (the subnet
 * one home or host is given: a client could otherwise take a fresh key, and fresh limits, per address).
 */
export function addressKey(address: string): string {
  // IPv4, or IPv4 inside IPv6 (`::ffff:203.0.113.9`): the IPv4 address.
  if (address.includes(".")) return address.slice(address.lastIndexOf(":") + 1);
  if (!address.includes(":")) return address;
  const [head = "", tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups =
    tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  if (groups.length < 4) return address;
  const prefix = groups.slice(0, 4).map((group) => group.toLowerCase().replace(/^0+(?=.)/, ""));
  return `${prefix.join(":")}::/64`;
}
