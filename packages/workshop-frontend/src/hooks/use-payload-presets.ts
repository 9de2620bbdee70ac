import { useEffect, useState } from "react";
import { type PayloadPreset, readPresets, savePreset } from "../runs/payload-presets.ts";

/** The open draft's payload presets, and saving the current payload as one. */
export function usePayloadPresets(draftId: string) {
  const [presets, setPresets] = useState<PayloadPreset[]>(() => readPresets(window.localStorage, draftId));
  useEffect(() => setPresets(readPresets(window.localStorage, draftId)), [draftId]);
  const save = (preset: PayloadPreset) => setPresets(savePreset(window.localStorage, draftId, presets, preset));
  return { presets, save };
}
