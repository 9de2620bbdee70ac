/**
 * The parts of the local workerd config that wrangler.toml decides (read by worker-config.ts): the
 * compatibility date and flags, the Worker Loader and Durable Object bindings, the namespaces with
 * their storage, the vars and the assets. What only this machine has (the runner pool, the disk
 * status, the gadget network) workshop-server.ts adds beside them.
 */

import { list, text } from "./capnp.ts";
import type { WorkerConfig } from "./worker-config.ts";

/** The workerd service that serves the assets' folder. */
export const ASSETS_SERVICE = "assets";

export interface WorkerdWorkerParts {
  /** capnp values for the Worker's fields of the same names. */
  compatibilityDate: string;
  compatibilityFlags: string;
  durableObjectNamespaces: string;
  /** capnp binding entries, to list with the host's own. */
  bindings: string[];
}

/**
 * A Durable Object's ids derive from this key, as on Cloudflare from the Worker's name and the class:
 * renaming either orphans the stored objects.
 */
export function durableObjectUniqueKey(workerName: string, className: string): string {
  return `${workerName}-${className}`;
}

function varBinding(name: string, value: unknown): string {
  // Cloudflare gives a string var as text and any other TOML value as its JSON.
  return typeof value === "string"
    ? `(name = ${text(name)}, text = ${text(value)})`
    : `(name = ${text(name)}, json = ${text(JSON.stringify(value))})`;
}

/** `hostVars` are the host's own (ports, secrets); a var wrangler.toml also sets takes the host's value. */
export function workerdWorkerParts(config: WorkerConfig, hostVars: Record<string, string> = {}): WorkerdWorkerParts {
  return {
    compatibilityDate: text(config.compatibilityDate),
    compatibilityFlags: list(config.compatibilityFlags.map(text)),
    durableObjectNamespaces: list(
      config.durableObjects.map(
        ({ className, sqlite }) =>
          `(className = ${text(className)}, uniqueKey = ${text(durableObjectUniqueKey(config.name, className))}, enableSql = ${sqlite})`,
      ),
    ),
    bindings: [
      ...config.workerLoaders.map((binding) => `(name = ${text(binding)}, workerLoader = (id = ${text(binding)}))`),
      ...config.durableObjects.map(
        ({ binding, className }) => `(name = ${text(binding)}, durableObjectNamespace = ${text(className)})`,
      ),
      ...(config.assets?.binding ? [`(name = ${text(config.assets.binding)}, service = ${text(ASSETS_SERVICE)})`] : []),
      ...Object.entries({ ...config.vars, ...hostVars }).map(([name, value]) => varBinding(name, value)),
    ],
  };
}
