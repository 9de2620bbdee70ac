/**
 * Editor types for a gadget, generated from its grants: `run(payload, env)` sees exactly the `env` the
 * overseer will grant, so using a capability that was not granted is a type error before it is a
 * runtime error (the catalog's agents are typed by `catalogDeclaration`). Ambient globals (console, timers, crypto, structuredClone) come from the lib.
 */

import type { GadgetGrants } from "@gadgets/workshop-shared";
import { catalogDeclaration, type TypedAgent } from "@gadgets/workshop-shared/agent-types";

const KV = `/** A small key-value store of this gadget's own, kept with the workspace. */
interface GadgetKv {
  /** The value, or null when the key is not set. */
  get(key: string): Promise<string | null>;
  /** Keys up to 512 bytes, values up to 64 KiB, 1 MiB in all. */
  put(key: string, value: string): Promise<true>;
  /** True when the key existed. */
  delete(key: string): Promise<boolean>;
  /** Keys starting with \`prefix\`, in order, at most 1000. */
  list(prefix?: string): Promise<string[]>;
}`;

/**
 * The declarations for a gadget with these grants; with the catalog granted, `env.catalog.get("name")`
 * is typed from the published `agents` (each latest version's schemas) and completes their names.
 */
export function gadgetEnvTypes(grants: GadgetGrants, agents: readonly TypedAgent[] = []): string {
  const members: string[] = [];
  const declarations: string[] = [];
  if (grants.kv) {
    declarations.push(KV);
    members.push("  /** Granted by grants.kv. */\n  kv: GadgetKv;");
  }
  if (grants.fetch) {
    const hosts = grants.fetch.hosts.length ? grants.fetch.hosts.join(", ") : "no host yet";
    const injected = Object.entries(grants.fetch.headers ?? {}).map(
      ([host, headers]) => `${Object.keys(headers).join(", ")} for ${host}`,
    );
    const headers = injected.length
      ? ` The Workshop adds ${injected.join("; ")} (secrets filled in, never visible here).`
      : "";
    members.push(
      `  /** HTTP to exactly these hosts: ${hosts}.${headers} Granted by grants.fetch. */\n  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;`,
    );
  }
  if (grants.catalog) {
    declarations.push(catalogDeclaration(agents));
    members.push("  /** Granted by grants.catalog. */\n  catalog: GadgetCatalog;");
  }
  if (grants.secrets) {
    // A name granted but not set in the workspace is absent at run time, hence optional.
    const names = [...new Set(grants.secrets)].map((name) => `    readonly ${name}?: string;`);
    members.push(
      `  /** The workspace's secrets this gadget is granted (grants.secrets); a name not set is absent. Shared and embedded runs get none. Never log or return them: output is redacted. */\n  secrets: {\n${names.join("\n")}\n  };`,
    );
  }
  return `${declarations.join("\n\n")}

/** What a gadget's run(payload, env) receives as env: only what its manifest was granted. */
interface GadgetEnv {
${members.join("\n")}
}

/** The shape of a gadget's default export. */
interface Gadget<Payload = unknown, Result = unknown> {
  run(payload: Payload, env: GadgetEnv): Result | Promise<Result>;
}
`;
}
