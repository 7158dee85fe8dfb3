/**
 * The order variants are timed in within a round of interleaved timings, and the figure the rounds give.
 * @module
 */

/**
 * `names` in the order of round `round`: each in each place, and each right after each other as often as right
 * before it. A variant timed right after one running the same code reads faster (an A/A comparison of one build
 * against itself, timed in a fixed order, put the second copy 15% ahead), so the order is rotated each round and
 * reversed every other `names.length` rounds: `2 × names.length` rounds balance it.
 */
export function roundOrder<K extends string>(names: readonly K[], round: number): K[] {
  const order = names.map((_, i) => names[(i + round) % names.length]!)
  if (Math.floor(round / names.length) % 2 === 1) order.reverse()
  return order
}

/**
 * The rounds a bench run by hand times `builds` variants in: `BENCH_ROUNDS`, or `cycles` times the `2 × builds` rounds
 * that balance their orders.
 */
export function balancedRounds(builds: number, cycles = 1): number {
  return Number(process.env['BENCH_ROUNDS'] ?? 2 * builds * cycles)
}

/** The median of a variant's timings over the rounds: the figure each bench reads, as one slow round moves it least. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
