/** Strings a gadget could print to steer the user's terminal, and a check that none reached it raw. */

export const ATTACKS = {
  /** Sets the system clipboard. */
  clipboard: "\u001b]52;c;ZWNobyBwd25lZA==\u0007",
  /** Sets the window title. */
  title: "\u001b]0;pwned\u0007",
  /** Goes back up a line and writes over it. */
  overwrite: "\r\u001b[1A✓ all checks passed",
  /** The one-character C1 CSI (U+009B): erases the line on terminals that take C1. */
  c1: "\u009b2K",
  /** Colours of the gadget's own (the CLI's look), and hidden text. */
  colour: "\u001b[32m✓ ok\u001b[8mhidden",
  /** Right-to-left override: what follows reads backwards. */
  bidi: "\u202egnp.exe",
  /** DEL and a backspace. */
  erase: "\u007f\b\b",
} as const;

/** Every attack in one string. */
export const ALL_ATTACKS = Object.values(ATTACKS).join(" ");

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const STEERING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** This command line's own colours: SGR sequences with the codes terminal-style.ts and util.inspect use. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const OWN_COLOUR = /\u001b\[(?:[0-9]|[1-9][0-9])m/g;

/**
 * The characters in `text` that could steer a terminal, as code points, beside `\n`, `\t` and (when
 * `colours` says so) the CLI's own colour codes; empty when the text is safe to print.
 */
export function steeringCharacters(text: string, colours = false): string[] {
  const rest = colours ? text.replace(OWN_COLOUR, "") : text;
  return [...rest.matchAll(STEERING)].map(([char]) => `U+${char.codePointAt(0)?.toString(16).padStart(4, "0")}`);
}
