import type { Draft } from "@gadgets/workshop-shared";
import { checkManifest } from "@gadgets/workshop-shared";
import { useCallback, useEffect, useState } from "react";
import { declaredInputSchema, payloadFromDefaults } from "../runs/input-schema.ts";
import { STORAGE_KEYS } from "../storage-keys.ts";

/**
 * The run panel's payload text for the open draft: what the person last wrote for it (kept in the
 * browser), else the manifest's `exampleInput`, else its `inputSchema`'s defaults. Text belongs to the
 * draft it was loaded for, so a switch never shows or stores the previous draft's payload.
 */
export function usePayload(
  draftId: string | undefined,
  loaded: Draft | undefined,
): { text: string; setText(text: string): void } {
  const [payload, setPayload] = useState<{ draftId: string | undefined; text: string }>({
    draftId: undefined,
    text: "",
  });

  useEffect(() => {
    if (!loaded) return;
    const manifest = checkManifest(loaded.files);
    const stored = window.localStorage.getItem(STORAGE_KEYS.payload(loaded.id));
    setPayload({
      draftId: loaded.id,
      text:
        stored ??
        JSON.stringify(
          (manifest.ok ? manifest.value.exampleInput : undefined) ??
            payloadFromDefaults(declaredInputSchema(loaded.files)) ??
            {},
          null,
          2,
        ),
    });
  }, [loaded]);

  useEffect(() => {
    if (payload.draftId) window.localStorage.setItem(STORAGE_KEYS.payload(payload.draftId), payload.text);
  }, [payload]);

  const setText = useCallback((text: string) => setPayload({ draftId, text }), [draftId]);
  return { text: payload.draftId === draftId ? payload.text : "", setText };
}
