/**
 * Console values for a terminal: the encoded tree a run streams (see console-values.ts in the shared
 * package) turned back into values Node's `util.inspect` prints the way `console.log` would — Maps as
 * Maps, class names kept — with cut-off parts shown as short labels. Logged errors print as their
 * stack, which the caller points at local files. A `console.table` prints as an aligned text table.
 * Everything the gadget sent is data: control characters come out escaped (terminal-text.ts).
 */

import { inspect } from "node:util";
import type { ConsoleTable, EncodedValue } from "@gadgets/workshop-shared";
import { type ConsoleValueDisplay, decodeConsoleValue } from "@gadgets/workshop-shared/decode-console-value";
import { escapeControls, escapeControlsButColours } from "./terminal-text.ts";

/** A stand-in for what could not be sent; inspect prints its label as is, so it is escaped here. */
class Label {
  readonly text: string;
  constructor(text: string) {
    this.text = escapeControls(text);
  }
  [inspect.custom](_depth: number, options: { stylize(text: string, style: string): string }): string {
    return options.stylize(this.text, "special");
  }
}

/** A terminal prints what an object inspector would unfold as one label, escaped like the rest. */
const terminalDisplay = (stackOf: (stack: string) => string): ConsoleValueDisplay => ({
  placeholder: (text) => new Label(text),
  symbol: (value) => new Label(value.v),
  function: (value) => new Label(`[Function: ${value.name || "(anonymous)"}]`),
  regexp: (value) => new Label(value.v),
  error: (value) => new Label(stackOf(value.stack || `${value.name}: ${value.message}`)),
  typedarray: (value) =>
    new Label(
      `${value.ctor}(${value.length}) [ ${value.items.join(", ")}${value.length > value.items.length ? ", …" : ""} ]`,
    ),
});

/** Turns an encoded value back into one `util.inspect` can print. */
export function toInspectable(value: EncodedValue, stackOf: (stack: string) => string): unknown {
  return decodeConsoleValue(value, terminalDisplay(stackOf));
}

/**
 * One console call as a line of text: strings as they are, other values as `console.log` would show them.
 * Inspect escapes the control characters of the strings and keys it quotes, not bidi ones; labels are
 * escaped already, so whatever else steers in its output is escaped too, and only its own colours stay.
 */
export function formatConsoleValues(
  values: readonly EncodedValue[],
  colors: boolean,
  stackOf: (stack: string) => string,
): string {
  return values
    .map((value) =>
      value.t === "string"
        ? escapeControls(String(toInspectable(value, stackOf)))
        : (colors ? escapeControlsButColours : escapeControls)(
            // The encoder already capped sizes; inspect's own caps would cut twice.
            inspect(toInspectable(value, stackOf), {
              colors,
              depth: null,
              breakLength: 100,
              maxArrayLength: null,
              maxStringLength: null,
            }),
          ),
    )
    .join(" ");
}

/** Characters of a table cell; a longer one is cut so the table stays readable in a terminal. */
const MAX_CELL_WIDTH = 40;

const cell = (text: string) => {
  const flat = escapeControls(text.replaceAll("\n", " "));
  return flat.length > MAX_CELL_WIDTH ? `${flat.slice(0, MAX_CELL_WIDTH - 1)}…` : flat;
};

/** A table drawn with box lines, one string per terminal line, with what was left out said below it. */
export function formatConsoleTable(table: ConsoleTable): string[] {
  const header = table.header.map(cell);
  const rows = table.rows.map((row) => row.map(cell));
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const rule = (left: string, middle: string, right: string) =>
    `${left}${widths.map((width) => "─".repeat(width + 2)).join(middle)}${right}`;
  const line = (cells: string[]) => `│${widths.map((width, i) => ` ${(cells[i] ?? "").padEnd(width)} `).join("│")}│`;
  const more = [
    ...(table.moreRows > 0 ? [`${table.moreRows} more rows`] : []),
    ...(table.moreColumns > 0 ? [`${table.moreColumns} more columns`] : []),
  ];
  return [
    rule("┌", "┬", "┐"),
    line(header),
    rule("├", "┼", "┤"),
    ...rows.map(line),
    rule("└", "┴", "┘"),
    ...(more.length > 0 ? [`… ${more.join(", ")}`] : []),
  ];
}
