import { useEffect, useRef } from "react";
import { isTypingTarget, type Shortcut, shortcutOf } from "../keyboard/shortcuts.ts";

/** Listens for the page-wide shortcuts for as long as the component is on the page. */
export function useShortcuts(actions: Record<Shortcut, () => void>): void {
  // The latest actions, without listening again on every render.
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const shortcut = shortcutOf(event, isTypingTarget(event.target));
      if (!shortcut) return;
      event.preventDefault();
      latest.current[shortcut]();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
