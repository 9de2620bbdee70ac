import { Icon } from "./Icon.tsx";

/** Switches between the light and dark theme (the choice is remembered by useTheme). */
export function ThemeToggle({ theme, onToggle }: { theme: "light" | "dark"; onToggle(): void }) {
  const dark = theme === "dark";
  const label = `Switch to ${dark ? "light" : "dark"} theme`;
  return (
    <button
      type="button"
      className="rounded px-1.5 py-1 text-zinc-700 hover:bg-zinc-200 dark:text-zinc-300 dark:hover:bg-zinc-800"
      onClick={onToggle}
      aria-label={label}
      title={label}
    >
      <Icon name={dark ? "sun" : "moon"} />
    </button>
  );
}
