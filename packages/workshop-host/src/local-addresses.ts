/**
 * The addresses of this machine's own network interfaces, as CIDRs for workerd's network `deny` list:
 * a gadget granted this machine's LAN address (or a name resolving to it) must not reach a service
 * listening on 0.0.0.0 here. workerd checks the list against the address a name resolves to.
 */

import { networkInterfaces } from "node:os";

export function ownInterfaceCidrs(): string[] {
  const cidrs = new Set<string>();
  for (const addresses of Object.values(networkInterfaces())) {
    for (const entry of addresses ?? []) {
      // A scope id (fe80::1%eth0) is not part of the address.
      const address = entry.address.split("%")[0] ?? entry.address;
      cidrs.add(entry.family === "IPv6" ? `${address}/128` : `${address}/32`);
    }
  }
  return [...cidrs].sort();
}
