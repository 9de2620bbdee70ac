/** Order statistics over samples in milliseconds. */

export interface Summary {
  n: number;
  median: number;
  p99: number;
}

/** One line of the printed table. */
export interface Row {
  name: string;
  summary?: Summary;
  throughput?: number;
  note?: string;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, median: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** Times `fn` `count` times after `warmup` untimed calls; returns milliseconds per call. */
export async function timeEach(count: number, warmup: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  return samples;
}

/**
 * Calls `fn` in batches until three batch medians in a row agree within 10 % (at most `maxBatches`):
 * a JIT still tiering up, in the client or the server, moves a median by more than its spread.
 * Returns how many batches it took.
 */
export async function warmUntilStable(fn: () => Promise<unknown>, batchSize = 200, maxBatches = 25): Promise<number> {
  const medians: number[] = [];
  while (medians.length < maxBatches) {
    medians.push(summarize(await timeEach(batchSize, 0, fn)).median);
    const last = medians.slice(-3);
    if (last.length === 3 && Math.max(...last) / Math.min(...last) < 1.1) break;
  }
  return medians.length;
}
