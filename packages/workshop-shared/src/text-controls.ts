/**
 * Characters that change how the text around them reads without being seen: C0 and C1 controls, DEL,
 * the left-to-right and right-to-left marks, and the bidi embeddings, overrides and isolates. A name
 * with one can spoof the title, page or command line it is shown in; text from a gadget is stripped of
 * them where it becomes a page's title or description.
 */

/** Whether the UTF-16 code unit is one of them. */
function isControl(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

export function hasTextControls(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isControl(text.charCodeAt(i))) return true;
  return false;
}

/** `text` without them (a space for each, so words they separated stay apart). */
export function withoutTextControls(text: string): string {
  let out = "";
  for (const char of text) out += isControl(char.charCodeAt(0)) ? " " : char;
  return out;
}
