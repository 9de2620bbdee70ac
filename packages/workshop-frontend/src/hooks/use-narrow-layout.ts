import { useSyncExternalStore } from "react";

/** Below this width the IDE is one column (Code · Run · Output) with its sidebar in a drawer. */
export const NARROW_QUERY = "(max-width: 767px)";

const media = () => window.matchMedia(NARROW_QUERY);

/** Whether the window is narrow (a phone, a small split), re-read as it is resized. */
export function useNarrowLayout(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const list = media();
      list.addEventListener("change", listener);
      return () => list.removeEventListener("change", listener);
    },
    () => media().matches,
  );
}
