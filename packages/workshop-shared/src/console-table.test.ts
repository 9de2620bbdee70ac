import { describe, expect, it } from "vitest";
import { consoleTable } from "./console-table.ts";
import { encodeConsoleValues } from "./console-values.ts";
import { CONSOLE_CAPS, CONSOLE_TABLE_SHOWN } from "./limits.ts";

const encoded = (value: unknown) => encodeConsoleValues([value], CONSOLE_CAPS)[0];

describe("consoleTable", () => {
  it("lays out an array of rows under the index and the given columns, cells as console text", () => {
    const table = consoleTable(encoded([{ name: "ada", age: 36 }, { name: "alan" }]), ["name", "age"]);
    expect(table).toEqual({
      header: ["(index)", "name", "age"],
      rows: [
        ["0", '"ada"', "36"],
        ["1", '"alan"', ""],
      ],
      moreRows: 0,
      moreColumns: 0,
    });
  });

  it("indexes an object's rows by key, arrays as rows by position", () => {
    const table = consoleTable(encoded({ first: [1, 2], second: { 1: "b" } }), ["0", "1"]);
    expect(table?.rows).toEqual([
      ["first", "1", "2"],
      ["second", "", '"b"'],
    ]);
  });

  it("puts rows that are not objects in a Values column", () => {
    const table = consoleTable(encoded([{ a: { deep: true } }, 7, "x"]), ["a"]);
    expect(table?.header).toEqual(["(index)", "a", "Values"]);
    expect(table?.rows).toEqual([
      ["0", "{ deep: true }", ""],
      ["1", "", "7"],
      ["2", "", '"x"'],
    ]);
  });

  it(`shows ${CONSOLE_TABLE_SHOWN.rows} rows and ${CONSOLE_TABLE_SHOWN.columns} columns, counting the rest (N and N+1)`, () => {
    const columns = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ c0: i }));
    const exact = consoleTable(encoded(rows(CONSOLE_TABLE_SHOWN.rows)), columns(CONSOLE_TABLE_SHOWN.columns));
    expect([exact?.rows.length, exact?.header.length, exact?.moreRows, exact?.moreColumns]).toEqual([
      CONSOLE_TABLE_SHOWN.rows,
      CONSOLE_TABLE_SHOWN.columns + 1,
      0,
      0,
    ]);
    const over = consoleTable(encoded(rows(CONSOLE_TABLE_SHOWN.rows + 1)), columns(CONSOLE_TABLE_SHOWN.columns + 1));
    expect([over?.rows.length, over?.header.length, over?.moreRows, over?.moreColumns]).toEqual([
      CONSOLE_TABLE_SHOWN.rows,
      CONSOLE_TABLE_SHOWN.columns + 1,
      1,
      1,
    ]);
  });

  it("counts rows the encoder left out too", () => {
    const many = Array.from({ length: 500 }, (_, i) => i);
    expect(consoleTable(encoded(many), [], { rows: 1000, columns: 20 })?.moreRows).toBe(500 - CONSOLE_CAPS.maxKeys);
  });

  it("is undefined for what is not rows", () => {
    expect(consoleTable(encoded("text"), [])).toBeUndefined();
    expect(consoleTable(encoded(new Map()), [])).toBeUndefined();
    expect(consoleTable(undefined, [])).toBeUndefined();
  });
});
