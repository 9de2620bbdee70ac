import { describe, expect, it } from "vitest";
import { atLeast, atMost, floorRatioTable } from "./floor-ratios.ts";

describe("floorRatioTable", () => {
  it("says a target is out of reach only when the least the shape and its duties reach misses it", () => {
    const lines = floorRatioTable([
      { figure: "warm", target: atMost(2), value: 3.8, least: 2.5 },
      { figure: "throughput", target: atLeast(0.4), value: 0.15, least: 0.47 },
      { figure: "slow", target: atLeast(0.4), value: 0.15, least: 0.3 },
      { figure: "lost", target: atMost(2), value: 3.8, least: Number.NaN },
      { figure: "cold", target: atMost(1.2), value: 1.1 },
    ]);
    expect(lines.slice(4)).toEqual([
      "| warm | ≤ 2.0× | 3.80× | ✘ | 2.50× | yes |",
      "| throughput | ≥ 0.4× | 0.15× | ✘ | 0.47× | not shown |",
      "| slow | ≥ 0.4× | 0.15× | ✘ | 0.30× | yes |",
      "| lost | ≤ 2.0× | 3.80× | ✘ | not measured | ? |",
      "| cold | ≤ 1.2× | 1.10× | ✔ |  |  |",
    ]);
  });
});
