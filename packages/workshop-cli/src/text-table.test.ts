import { describe, expect, it } from "vitest";
import { tableText, utcMinute, utcSecond } from "./text-table.ts";

describe("text tables", () => {
  it("pads each column to its widest cell and trims the line ends", () => {
    expect(
      tableText(
        ["A", "LONG HEAD"],
        [
          ["wide cell", "x"],
          ["b", ""],
        ],
      ),
    ).toBe("A          LONG HEAD\nwide cell  x\nb\n");
  });

  it("prints times in UTC, to the minute or the second", () => {
    expect(utcMinute(0)).toBe("1970-01-01 00:00 UTC");
    expect(utcSecond(61_000)).toBe("1970-01-01 00:01:01 UTC");
  });
});
