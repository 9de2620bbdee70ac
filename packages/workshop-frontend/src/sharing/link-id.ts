/**
 * A link's id from its path segment, percent-decoded; undefined for a malformed escape (`/s/%`), which
 * names no link: the page says so instead of failing before it renders.
 */
export function linkIdOf(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
