/**
 * How deeply a JSON text nests, read from the text itself: the most arrays and objects any value in it
 * sits inside (`0` → 0, `[0]` → 1, `[[]]` → 1), the measure the payload rule (MAX_JSON_DEPTH) counts.
 * One pass, no recursion, so a text of any depth is measured without touching the stack; strings are
 * skipped whole. In the isolate a gadget could have replaced the string methods it uses and so fool
 * it; that only fails its own run, and the runner measures again in its own realm.
 */

const QUOTE = 34;
const BACKSLASH = 92;

export function jsonTextDepth(text: string): number {
  let open = 0;
  let deepest = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    // ] }
    if (c === 93 || c === 125) {
      open--;
      continue;
    }
    // , : and whitespace separate values
    if (c === 44 || c === 58 || c === 32 || c === 10 || c === 13 || c === 9) continue;
    // Anything else starts a value (or a key, whose value sits as deep): it lies inside `open` containers.
    if (open > deepest) deepest = open;
    // [ {
    if (c === 91 || c === 123) open++;
    else if (c === QUOTE) i = closingQuote(text, i);
  }
  return deepest;
}

/** Where the string opened at `at` ends (the text's length if it never does). */
function closingQuote(text: string, at: number): number {
  for (let quote = text.indexOf('"', at + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return text.length;
}
