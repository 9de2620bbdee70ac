/** A draft's named payloads, kept in the browser beside the draft's payload text. */

import { STORAGE_KEYS } from "../storage-keys.ts";

export interface PayloadPreset {
  name: string;
  payload: string;
}

/** Presets kept per draft; saving one more drops the oldest. */
export const MAX_PRESETS = 20;

type PresetStorage = Pick<Storage, "getItem" | "setItem">;

/** The draft's presets as stored; anything not shaped like a preset is left out. */
export function readPresets(storage: PresetStorage, draftId: string): PayloadPreset[] {
  try {
    const parsed = JSON.parse(storage.getItem(STORAGE_KEYS.presets(draftId)) ?? "[]") as unknown;
    return Array.isArray(parsed)
      ? parsed.filter((p): p is PayloadPreset => typeof p?.name === "string" && typeof p?.payload === "string")
      : [];
  } catch {
    return [];
  }
}

/** Saves `preset` (replacing one of the same name, as the newest) and returns the draft's presets. */
export function savePreset(
  storage: PresetStorage,
  draftId: string,
  presets: readonly PayloadPreset[],
  preset: PayloadPreset,
): PayloadPreset[] {
  const next = [...presets.filter((p) => p.name !== preset.name), preset].slice(-MAX_PRESETS);
  storage.setItem(STORAGE_KEYS.presets(draftId), JSON.stringify(next));
  return next;
}
