import type { ReactNode } from "react";
import { Icon, type IconName } from "./Icon.tsx";

/**
 * A toolbar button: an icon with a short label (hidden on narrow windows) and a tooltip that names
 * the action and its shortcut.
 */
export function ToolButton({
  icon,
  label,
  shortcut,
  tooltip,
  onClick,
  disabled,
  children,
}: {
  icon: IconName;
  label: string;
  shortcut?: string;
  /** Longer than the label: what the button does. */
  tooltip?: string;
  onClick(): void;
  disabled?: boolean;
  children?: ReactNode;
}) {
  const title = `${tooltip ?? label}${shortcut ? ` (${shortcut})` : ""}`;
  return (
    <button
      type="button"
      className="relative flex items-center gap-1 rounded px-1.5 py-1 text-sm text-zinc-700 hover:bg-zinc-200 disabled:opacity-50 dark:text-zinc-300 dark:hover:bg-zinc-800"
      onClick={onClick}
      disabled={disabled}
      title={title}
      aria-label={label}
      aria-keyshortcuts={shortcut}
    >
      <Icon name={icon} />
      <span className="hidden lg:inline" aria-hidden="true">
        {label}
      </span>
      {children}
    </button>
  );
}
