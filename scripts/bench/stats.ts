/** Median, min and max of a sample (ms), rounded to 0.01. */
export type Summary = {
  /** The median, ms. */
  median: number;
  /** The fastest run, ms. */
  min: number;
  /** The slowest run, ms. */
  max: number;
  /** How many samples. */
  runs: number;
};

/**
 * Summarise a sample.
 *
 * @param samples - Measurements.
 * @returns Their median (the mean of the two middle values for an even count), min, max and count.
 */
export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? sorted[middle]
      : (sorted[middle - 1] + sorted[middle]) / 2;
  /**
   * Round to hundredths.
   *
   * @param value - A number.
   * @returns It rounded to 0.01.
   */
  const round = (value: number): number => Math.round(value * 100) / 100;
  return {
    median: round(median),
    min: round(sorted[0] ?? 0),
    max: round(sorted.at(-1) ?? 0),
    runs: sorted.length,
  };
}

/**
 * Time `task` `warmup` times unrecorded, then `runs` times.
 *
 * @param task - The operation.
 * @param runs - Recorded runs.
 * @param warmup - Unrecorded runs first.
 * @returns The summary of the recorded runs (ms).
 */
export async function timeIt(
  task: () => Promise<unknown> | unknown,
  runs: number,
  warmup: number,
): Promise<Summary> {
  for (let index = 0; index < warmup; index += 1) {
    await task();
  }
  const samples: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    await task();
    samples.push(performance.now() - started);
  }
  return summarize(samples);
}

/**
 * A summary for a table cell.
 *
 * @param summary - The summary, or undefined when not measured.
 * @returns `12.34 ms (10.00–15.00)`, or `n/a`.
 */
export function formatMs(summary: Summary | undefined): string {
  return summary
    ? `${summary.median.toFixed(2)} ms (${summary.min.toFixed(2)}–${summary.max.toFixed(2)})`
    : 'n/a';
}
