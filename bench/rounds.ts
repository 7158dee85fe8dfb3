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

/**
 * What runs before each timed sample: nothing, unless `BENCH_COLLECT=each` asks for a full collection first (how these
 * benches timed until 0.3.0). A forced full collection before every replay is not what a host's collector does, and it
 * does not fall on builds alike: after it V8 drops optimized code (`--trace-deopt`: "weak objects") and flushes
 * bytecode, and on the real runs each replay of the current build then compiled about 220 functions again (0.2.0's
 * about 30), paid for on the CPU clock by the compiler's thread (bench/README.md, "How the figures are measured"). Without it
 * each build is timed at the steady state a running host keeps, the collections its own garbage causes included.
 */
export function beforeTimedSample(gc: () => void): void {
  if (process.env['BENCH_COLLECT'] === 'each') gc()
}
