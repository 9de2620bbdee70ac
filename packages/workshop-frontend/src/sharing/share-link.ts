import { errorMessage } from "../error-message.ts";
import type { Notice } from "../toasts/toast-store.ts";

/**
 * Makes a public link (`make` returns its path), copies it to the clipboard when the page may, and
 * returns what to tell the person: the link (shown as a link with a copy button), or why there is none.
 */
export async function shareLink(
  make: () => Promise<string>,
  page: { origin: string; copy?(text: string): Promise<void> },
): Promise<Notice> {
  try {
    const link = `${page.origin}${await make()}`;
    // A page without clipboard permission still shows the link.
    await page.copy?.(link).catch(() => undefined);
    return { tone: "info", text: "Link:", link };
  } catch (error) {
    return { tone: "error", text: errorMessage(error) };
  }
}
