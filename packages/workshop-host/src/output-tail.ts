/** Replaces control characters (terminal escapes among them) by a visible mark; keeps tabs. */
function visible(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.charCodeAt(0);
    out += (code < 0x20 && code !== 0x09) || code === 0x7f ? "�" : char;
  }
  return out;
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
