import { useMemo } from "react";
import { type LayoutStorage, useDefaultLayout } from "react-resizable-panels";
import { STORAGE_KEYS } from "../storage-keys.ts";

/**
 * A resizable group's sizes, kept across reloads under the IDE's own localStorage key (the library's
 * would be a name of its own, outside `storage-keys.ts`). Pass the answer's `defaultLayout` and
 * `onLayoutChanged` to the `Group`.
 */
export function usePaneLayout(group: "columns" | "run-column") {
  const key = STORAGE_KEYS.paneLayout(group);
  const storage = useMemo<LayoutStorage>(
    () => ({
      getItem: () => window.localStorage.getItem(key),
      setItem: (_libraryKey, value) => window.localStorage.setItem(key, value),
    }),
    [key],
  );
  const { defaultLayout, onLayoutChanged } = useDefaultLayout({
    id: key,
    storage,
    onlySaveAfterUserInteractions: true,
  });
  return { defaultLayout, onLayoutChanged };
}
