import type { PackagesView } from "../hooks/use-packages.ts";
import { errorMessage } from "../error-message.ts";
import { useState } from "react";
import { RegistryDialog } from "./RegistryDialog.tsx";

/**
 * gadget.json's `dependencies` with the versions gadget.lock.json holds, an Update button for each, and
 * the workspace's registry setting (which a draft without dependencies needs too, before its first import).
 */
export function DependenciesPanel({ packages }: { packages: PackagesView }) {
  const [updating, setUpdating] = useState<string>();
  const [failed, setFailed] = useState<string>();
  const [choosingRegistry, setChoosingRegistry] = useState(false);
  const { dependencies, problem, resolving } = packages;
  const update = async (name: string) => {
    setUpdating(name);
    setFailed(undefined);
    try {
      await packages.update(name);
    } catch (error) {
      setFailed(errorMessage(error));
    } finally {
      setUpdating(undefined);
    }
  };
  return (
    <section className="space-y-1 p-2 text-xs" aria-label="Dependencies">
      <h2 className="font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">Dependencies</h2>
      {dependencies.length === 0 && (
        <p className="text-zinc-600 dark:text-zinc-400">None: import a package and accept the quick fix to add it.</p>
      )}
      <ul className="space-y-0.5">
        {dependencies.map((dependency) => (
          <li key={dependency.name} className="flex items-center gap-1" data-testid="dependency-row">
            <span className="truncate font-mono">{dependency.name}</span>
            <span className="text-zinc-600 dark:text-zinc-400">{dependency.range}</span>
            <span className="ml-auto font-mono" title="The version gadget.lock.json holds">
              {dependency.version ?? (resolving ? "locking…" : "not locked")}
            </span>
            <button
              type="button"
              className="rounded border border-zinc-300 px-1 hover:bg-zinc-200 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
              disabled={updating !== undefined || resolving}
              onClick={() => void update(dependency.name)}
              aria-label={`Update ${dependency.name}`}
              title={`Move ${dependency.name} to the newest version ${dependency.range} allows`}
            >
              {updating === dependency.name ? "Updating…" : "Update"}
            </button>
          </li>
        ))}
      </ul>
      {(problem ?? failed) && (
        <p className="text-red-600" role="alert">
          {problem ?? failed}
        </p>
      )}
      <button
        type="button"
        className="rounded border border-zinc-300 px-2 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
        onClick={() => setChoosingRegistry(true)}
      >
        Package registry…
      </button>
      {choosingRegistry && <RegistryDialog onClose={() => setChoosingRegistry(false)} />}
    </section>
  );
}
