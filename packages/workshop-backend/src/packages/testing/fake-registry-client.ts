/**
 * The registry client a unit test talks to its `FakeRegistry` through: the fake's fetch, the base
 * FAKE_REGISTRY (even for a fake on another origin, which is how a test serves tarballs from elsewhere),
 * and no local fetch, as on Cloudflare; `options` replace any of these or add the rest.
 */

import { RegistryClient, type RegistryClientOptions } from "../registry-client.ts";
import { FAKE_REGISTRY, type FakeRegistry } from "./fake-registry.ts";

export function fakeRegistryClient(fake: FakeRegistry, options: Partial<RegistryClientOptions> = {}): RegistryClient {
  return new RegistryClient({ base: FAKE_REGISTRY, fetch: fake.fetch, allowLocal: false, ...options });
}
