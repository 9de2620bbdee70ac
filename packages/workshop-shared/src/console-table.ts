/**
 * `console.table` as rows and cells of text, for any client to lay out (the IDE as an HTML table, the
 * terminal as aligned text). The data travels as an ordinary encoded value; the line's layout names the
 * columns the isolate picked (see `LogLayout.table`).
 */

import { type EncodedValue, formatEncodedValue } from "./console-values.ts";
import { CONSOLE_TABLE_SHOWN } from "./limits.ts";

export const TABLE_INDEX_HEADER = "(index)";
/** The column of rows that have no keys of their own (numbers, strings…), as Node names it. */
export const TABLE_VALUES_HEADER = "Values";

export interface ConsoleTable {
  /** `(index)`, the columns shown, then `Values` when some row is not an object. */
  header: string[];
  /** One text per header column; empty where a row has no such key. */
  rows: string[][];
  /** Rows and columns left out of what is shown. */
  moreRows: number;
  moreColumns: number;
}

/** A row's cell under `key`, when the row is an object or array that has one. */
function cellOf(row: EncodedValue, key: string): EncodedValue | undefined {
  if (row.t === "object") return row.entries.find(([name]) => name === key)?.[1];
  if (row.t === "array" && /^(0|[1-9]\d{0,8})$/.test(key)) return row.items[Number(key)];
  return undefined;
}

const hasKeys = (row: EncodedValue) => row.t === "object" || row.t === "array";

/**
 * The table `data` makes with `columns`, at most `shown` rows by columns (`Values` aside); undefined
 * when `data` is not an array or object of rows, so the caller shows it as a plain value.
 */
export function consoleTable(
  data: EncodedValue | undefined,
  columns: readonly string[],
  shown: { rows: number; columns: number } = CONSOLE_TABLE_SHOWN,
): ConsoleTable | undefined {
  let rows: [index: string, row: EncodedValue][];
  let total: number;
  if (data?.t === "array") {
    rows = data.items.map((row, i) => [String(i), row]);
    total = data.length;
  } else if (data?.t === "object") {
    rows = data.entries;
    total = data.size;
  } else return undefined;
  rows = rows.slice(0, shown.rows);
  const keys = columns.slice(0, shown.columns);
  const values = rows.some(([, row]) => !hasKeys(row));
  const text = (cell: EncodedValue | undefined) => (cell === undefined ? "" : formatEncodedValue(cell, true));
  return {
    header: [TABLE_INDEX_HEADER, ...keys, ...(values ? [TABLE_VALUES_HEADER] : [])],
    rows: rows.map(([index, row]) => [
      index,
      ...keys.map((key) => text(cellOf(row, key))),
      ...(values ? [hasKeys(row) ? "" : text(row)] : []),
    ]),
    moreRows: Math.max(0, total - rows.length),
    moreColumns: columns.length - keys.length,
  };
}
