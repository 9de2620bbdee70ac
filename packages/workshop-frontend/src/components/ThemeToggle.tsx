/** Switches between the light and dark theme (the choice is remembered by useTheme). */
export function ThemeToggle({ theme, onToggle }: { theme: "light" | "dark"; onToggle(): void }) {
  const dark = theme === "dark";
  return (
    <button
      type="button"
      className="rounded px-2 py-0.5 text-sm hover:bg-zinc-200 dark:hover:bg-zinc-800"
      onClick={onToggle}
      aria-label={`Switch to ${dark ? "light" : "dark"} theme`}
    >
      {dark ? "☀ light" : "☾ dark"}
    </button>
  );
}
