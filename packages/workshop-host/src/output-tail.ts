/** The last lines a process printed, for error messages; cheap to append to on every line. */
export class OutputTail {
  readonly #lines: string[] = [];
  #start = 0;

  readonly #maxLines: number;

  constructor(maxLines: number) {
    this.#maxLines = maxLines;
  }

  push(line: string): void {
    this.#lines.push(line);
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
