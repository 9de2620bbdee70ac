/**
 * Text from a run or from the Workshop, made data before it reaches a terminal. A terminal takes some
 * characters as orders, not text: ESC starts sequences that set the clipboard (OSC 52), the window title
 * or colours, move the cursor or erase lines; CR and BS write over what is shown; C1 characters (U+0080
 * to U+009F, such as U+009B, a one-character CSI) do the same as ESC sequences; bidi overrides and
 * isolates (U+202A–U+202E, U+2066–U+2069) reorder what a reader sees. Each is shown as its `\uXXXX`
 * escape instead (ESC as `\u001b`): readable, the same spelling as in JavaScript, and valid inside a
 * JSON string, so JSON output stays JSON with the same meaning. `\n` and `\t` are kept as they are.
 * A backslash is not escaped, so `\u001b` typed by a gadget looks the same: a reader is misled at most
 * about which, never about what follows.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same, but a colour sequence (SGR: ESC [ digits and semicolons m) is kept as it is. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROLS_BUT_COLOURS = /\u001b\[[0-9;]*m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const escaped = (char: string): string =>
  char.length > 1 ? char : `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** `text` with every character that could steer a terminal shown as its escape. For data, before styling. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, escaped);
}

/**
 * For text this command line styled itself, whose data was escaped before it was styled (util.inspect's
 * coloured output, every line written): colours stay, anything else that could steer a terminal is escaped.
 */
export function escapeControlsButColours(text: string): string {
  return text.replace(CONTROLS_BUT_COLOURS, escaped);
}
