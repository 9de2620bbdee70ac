/**
 * The figures the local execution layer is held to, each as a ratio to the floor (the bare workerd Worker
 * with Worker Loader isolates) measured in the same run: one compact table, target and verdict per line.
 */

/** A ratio's target: most are ceilings (a cost), throughput is a floor of its own (a rate). */
export type Target =
  | { readonly kind: "at most"; readonly times: number }
  | { readonly kind: "at least"; readonly times: number };

export interface FloorRatio {
  readonly figure: string;
  readonly target: Target;
  /** The Workshop's figure ÷ the floor's; NaN where one of the two was not measured. */
  readonly value: number;
  /**
   * The same figure for the floor in the Workshop's shape with a workspace's duties (floor-worker.ts),
   * ÷ the floor's: no Workshop built so does better (it does all that, and more). Left out where no such
   * floor is measured.
   */
  readonly least?: number;
}

export const atMost = (times: number): Target => ({ kind: "at most", times });
export const atLeast = (times: number): Target => ({ kind: "at least", times });

export function met(ratio: FloorRatio): boolean {
  if (!Number.isFinite(ratio.value)) return false;
  return ratio.target.kind === "at most" ? ratio.value <= ratio.target.times : ratio.value >= ratio.target.times;
}

const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : "not measured");

/** The table's lines (Markdown, as the bench's other tables). */
export function floorRatioTable(ratios: readonly FloorRatio[]): string[] {
  const sign = (target: Target) => (target.kind === "at most" ? "≤" : "≥");
  return [
    "Ratios to the floor (bare workerd Worker → Worker Loader isolate, measured in this run):",
    "",
    "| figure | target | value | met | the least measured for the shape and its duties | out of reach |",
    "| --- | ---: | ---: | :---: | ---: | :---: |",
    ...ratios.map((r) => {
      const least = r.least === undefined ? undefined : { ...r, value: r.least };
      // A least that meets the target only fails to rule it out: it lacks some of the Workshop's work.
      const outOfReach =
        least === undefined ? "" : !Number.isFinite(least.value) ? "?" : met(least) ? "not shown" : "yes";
      return `| ${r.figure} | ${sign(r.target)} ${r.target.times.toFixed(1)}× | ${times(r.value)} | ${met(r) ? "✔" : "✘"} | ${least ? times(least.value) : ""} | ${outOfReach} |`;
    }),
  ];
}
