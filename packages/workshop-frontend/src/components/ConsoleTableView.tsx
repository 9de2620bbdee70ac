import type { ConsoleTable } from "@gadgets/workshop-shared/console-table";

/** A `console.table` line: every cell a text node, long ones cut by CSS with the whole text on hover. */
export function ConsoleTableView({ table }: { table: ConsoleTable }) {
  const more = [
    ...(table.moreRows > 0 ? [`${table.moreRows} more rows`] : []),
    ...(table.moreColumns > 0 ? [`${table.moreColumns} more columns`] : []),
  ];
  return (
    <div className="my-0.5 max-w-full overflow-x-auto">
      <table className="border-collapse text-left" data-testid="console-table">
        <thead>
          <tr>
            {table.header.map((title, i) => (
              <th
                // biome-ignore lint/suspicious/noArrayIndexKey: columns of one table never reorder
                key={i}
                className="border border-zinc-300 bg-zinc-100 px-1.5 font-semibold dark:border-zinc-700 dark:bg-zinc-800"
              >
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows of one table never reorder
            <tr key={r}>
              {row.map((text, c) => (
                <td
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells of one row never reorder
                  key={c}
                  className="max-w-80 truncate border border-zinc-300 px-1.5 dark:border-zinc-700"
                  title={text.length > 40 ? text : undefined}
                >
                  {text}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {more.length > 0 && <div className="italic text-zinc-600 dark:text-zinc-400">… {more.join(", ")}</div>}
    </div>
  );
}
