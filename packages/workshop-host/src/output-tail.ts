/** Control characters but the tab: terminal escapes among them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/g;

/**
 * Replaces control characters by a visible mark; keeps tabs. The result is a copy of its own, so a kept
 * line never holds on to the (larger) chunk of output it was cut from.
 */
function visible(text: string): string {
  return ` ${text}`.replace(CONTROL, "�").slice(1);
}

/** The last lines a process printed, for error messages; cheap to append to on every line. */
export class OutputTail {
  readonly #lines: string[] = [];
  #start = 0;

  readonly #maxLines: number;

  constructor(maxLines: number) {
    this.#maxLines = maxLines;
  }

  push(line: string): void {
    // Kept for error messages only: long lines are cut, control characters made visible.
    this.#lines.push(visible(line.slice(0, 2000)));
    if (this.#lines.length - this.#start > this.#maxLines) this.#start++;
    // Compact now and then instead of shifting on every line.
    if (this.#start > this.#maxLines) {
      this.#lines.splice(0, this.#start);
      this.#start = 0;
    }
  }

  text(): string {
    return this.#lines.slice(this.#start).join("\n");
  }
}
