/**
 * The Worker's configuration as wrangler.toml declares it — the one place it is written. The local
 * host makes its workerd config from this (`workerd-bindings.ts`), so a Durable Object, a Worker
 * Loader binding, a var or a compatibility flag added to wrangler.toml exists locally too, and the
 * Worker runs the same bindings here as `wrangler deploy` gives it on Cloudflare.
 */

import { readFileSync } from "node:fs";
import { check } from "@gadgets/workshop-shared/schemas";
import { parse } from "smol-toml";
import * as v from "valibot";

export interface DurableObjectConfig {
  /** The name the Worker reads it by (`env.WORKSPACES`). */
  binding: string;
  className: string;
  /** Created by a `new_sqlite_classes` migration (else a key-value one, `new_classes`). */
  sqlite: boolean;
}

export interface WorkerConfig {
  /** The Worker's name; Durable Object ids derive from it and the class name. */
  name: string;
  compatibilityDate: string;
  compatibilityFlags: string[];
  workerLoaders: string[];
  durableObjects: DurableObjectConfig[];
  /** `[vars]`: strings as text, anything else as JSON, as Cloudflare gives them to the Worker. */
  vars: Record<string, unknown>;
  /** The static assets, with `directory` as written (relative to wrangler.toml); no binding, no `env` entry. */
  assets?: { binding?: string; directory: string };
}

const Name = v.pipe(v.string(), v.nonEmpty());

/** Only the keys the Worker's bindings come from; wrangler reads the rest (main, keep_names, routes). */
const WranglerSchema = v.object({
  name: Name,
  compatibility_date: v.pipe(v.string(), v.isoDate()),
  compatibility_flags: v.optional(v.array(Name), []),
  worker_loaders: v.optional(v.array(v.object({ binding: Name })), []),
  durable_objects: v.optional(
    v.object({
      bindings: v.optional(
        v.array(
          v.object({
            name: Name,
            class_name: Name,
            script_name: v.optional(
              v.never(
                "durable_objects.bindings: script_name (a class of another Worker) has no local equivalent here.",
              ),
            ),
          }),
        ),
        [],
      ),
    }),
    { bindings: [] },
  ),
  migrations: v.optional(
    v.array(
      v.object({
        tag: Name,
        new_classes: v.optional(v.array(Name), []),
        new_sqlite_classes: v.optional(v.array(Name), []),
        renamed_classes: v.optional(v.array(v.object({ from: Name, to: Name })), []),
      }),
    ),
    [],
  ),
  vars: v.optional(v.record(v.string(), v.unknown()), {}),
  assets: v.optional(v.object({ directory: Name, binding: v.optional(Name) })),
});

/** Which classes the migrations made SQLite-backed, followed through renames in their order. */
function sqliteClasses(migrations: v.InferOutput<typeof WranglerSchema>["migrations"]): Map<string, boolean> {
  const kinds = new Map<string, boolean>();
  for (const migration of migrations) {
    for (const name of migration.new_classes) kinds.set(name, false);
    for (const name of migration.new_sqlite_classes) kinds.set(name, true);
    for (const { from, to } of migration.renamed_classes) {
      const kind = kinds.get(from);
      if (kind !== undefined) kinds.set(to, kind);
      kinds.delete(from);
    }
  }
  return kinds;
}

/** Reads a wrangler.toml's text; `source` names it in errors. */
export function parseWorkerConfig(text: string, source = "wrangler.toml"): WorkerConfig {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new Error(`${source} is not valid TOML: ${(error as Error).message}`);
  }
  const checked = check(WranglerSchema, document, `${source}: `);
  if (!checked.ok) throw new Error(checked.error);
  const toml = checked.value;
  const kinds = sqliteClasses(toml.migrations);
  const durableObjects = toml.durable_objects.bindings.map(({ name, class_name }) => {
    const sqlite = kinds.get(class_name);
    if (sqlite === undefined)
      throw new Error(
        `${source}: the Durable Object ${name} has class ${class_name}, which no migration creates. Add [[migrations]] with new_sqlite_classes = ["${class_name}"] and a new tag.`,
      );
    return { binding: name, className: class_name, sqlite };
  });
  return {
    name: toml.name,
    compatibilityDate: toml.compatibility_date,
    compatibilityFlags: toml.compatibility_flags,
    workerLoaders: toml.worker_loaders.map((loader) => loader.binding),
    durableObjects,
    vars: toml.vars,
    ...(toml.assets ? { assets: toml.assets } : {}),
  };
}

/** Reads the wrangler.toml at `path`. */
export function readWorkerConfig(path: string): WorkerConfig {
  return parseWorkerConfig(readFileSync(path, "utf8"), path);
}
