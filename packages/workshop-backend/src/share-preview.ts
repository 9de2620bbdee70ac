/**
 * What a `/s/` or `/r/` page says before the app loads: its title and description, for link previews.
 * Made once, when the share is stored, and kept beside it (`storage/share-table.ts`), so serving the
 * page reads these few bytes and never the share itself: a run record may be megabytes, and the page
 * is public and anyone may ask for it as often as they like.
 */

import type { SharedRunRecord, ShareSnapshot } from "@gadgets/workshop-shared/api";
import { withoutTextControls } from "@gadgets/workshop-shared/text-controls";
import type { ShareKind } from "./storage/share-store.ts";

export interface SharePreview {
  title: string;
  description: string;
}

export function previewOf(
  kind: ShareKind,
  value: Pick<ShareSnapshot | SharedRunRecord, "name" | "description">,
): SharePreview {
  // A page's title and description are read outside the page (tabs, link previews): no control or
  // bidi character of a gadget's reaches them.
  const name = withoutTextControls(value.name);
  return {
    title: kind === "record" ? `Run of ${name} — Gadget Workshop` : `${name} — Gadget Workshop`,
    description:
      withoutTextControls(value.description) ||
      (kind === "record"
        ? "A shared run: its code, console and result."
        : "A shared gadget: read it, run it, fork it."),
  };
}

/** The preview of a share stored before previews were kept, from its stored text (parsed this once). */
export function previewOfStored(kind: ShareKind, text: string): SharePreview {
  return previewOf(kind, JSON.parse(text) as ShareSnapshot | SharedRunRecord);
}
