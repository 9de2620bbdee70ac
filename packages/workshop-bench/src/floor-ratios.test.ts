import { describe, expect, it } from "vitest";
import { atLeast, atMost, floorRatioTable } from "./floor-ratios.ts";

describe("floorRatioTable", () => {
  it("says whether a target is reachable at all from the least the shape and its duties reach", () => {
    const lines = floorRatioTable([
      { figure: "warm", target: atMost(2), value: 3.8, least: 2.5 },
      { figure: "throughput", target: atLeast(0.4), value: 0.15, least: 0.47 },
      { figure: "cold", target: atMost(1.2), value: 1.1 },
    ]);
    expect(lines.slice(4)).toEqual([
      "| warm | ≤ 2.0× | 3.80× | ✘ | 2.50× | no |",
      "| throughput | ≥ 0.4× | 0.15× | ✘ | 0.47× | yes |",
      "| cold | ≤ 1.2× | 1.10× | ✔ |  |  |",
    ]);
  });
});
