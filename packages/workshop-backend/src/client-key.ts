/**
 * Who a request comes from, for keyed limits. On Cloudflare the edge sets CF-Connecting-IP (a client
 * cannot forge it there). Locally workerd reports the peer as `request.cf.clientIp` ("127.0.0.1:port"):
 * every local client is this machine, so the key is one TCP connection. The local value is read first,
 * so a local client cannot pick its own key with a forged header.
 */
export function clientKey(request: Request): string {
  const local = (request as Request & { cf?: { clientIp?: unknown } }).cf?.clientIp;
  if (typeof local === "string" && local) return `peer:${local.slice(0, 64)}`;
  const edge = request.headers.get("CF-Connecting-IP");
  return edge ? `ip:${edge.slice(0, 64)}` : "unknown";
}
