/** The plain tables and times the list commands print (`keys list`, `secrets list`, `schedules`). */

/** A time to the minute, in UTC so every machine prints the same: `2026-05-20 12:00 UTC`. */
export function utcMinute(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A time to the second, in UTC so every machine prints the same: `2026-05-20 12:00:03 UTC`. */
export function utcSecond(at: number): string {
  return `${new Date(at).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** A header and rows (already escaped) as lines of columns padded to their widest cell, two spaces apart. */
export function tableText(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const table = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column]?.length ?? 0)));
  return table
    .map(
      (row) =>
        `${row
          .map((cell, column) => cell.padEnd(widths[column] ?? 0))
          .join("  ")
          .trimEnd()}\n`,
    )
    .join("");
}
