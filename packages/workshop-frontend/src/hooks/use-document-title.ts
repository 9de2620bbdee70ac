import { useEffect } from "react";

/** Names the browser tab after what the page shows, once it is known. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title !== undefined) document.title = `${title} — Gadget Workshop`;
  }, [title]);
}
