/** Just enough Cap'n Proto text syntax to write workerd configs. */

/** A capnp text literal. */
export function text(value: string): string {
  return JSON.stringify(value);
}

export function list(items: readonly string[]): string {
  return `[${items.join(", ")}]`;
}
