/** One tab per file; the active one is marked for sight and for screen readers. */
export function FileTabs({
  paths,
  active,
  onSelect,
  label = "Open file",
}: {
  paths: string[];
  active: string;
  onSelect(path: string): void;
  label?: string;
}) {
  return (
    <div
      className="flex overflow-x-auto border-b border-zinc-200 text-sm dark:border-zinc-800"
      role="tablist"
      aria-label={label}
    >
      {paths.map((path) => (
        <button
          key={path}
          type="button"
          role="tab"
          aria-selected={path === active}
          className={`px-3 py-1 ${path === active ? "border-b-2 border-sky-500" : "text-zinc-600 dark:text-zinc-400"}`}
          onClick={() => onSelect(path)}
        >
          {path}
        </button>
      ))}
    </div>
  );
}
