/**
 * What the sections of `npm run bench` (bench/run.ts) time with: the rounds each figure takes, the collector, and
 * calls dispatched through a host, timed.
 * @module
 */
import { accept, execution, type Waterfall } from './hosts.ts'
import { beforeTimedSample, median, roundOrder } from './rounds.ts'
import type { TraceCall } from './trace.ts'

/** Rounds each timed figure takes: BENCH_ROUNDS trades time for stability (default 11). */
export const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 11)
/** Calls in the generated trace the per-call figures go through. */
export const TRACE_LENGTH = 100_000

const collector = (globalThis as { gc?: () => void }).gc
if (collector === undefined) throw new Error('run with node --expose-gc (npm run bench does)')
/** A full collection. */
export const gc: () => void = collector

/**
 * Run `calls` through post-execute for `agent` (`{}` for a fresh one); returns nanoseconds, on the wall clock or the
 * process's CPU clock.
 */
export async function dispatch(waterfall: Waterfall, calls: readonly TraceCall[], agent: object, clock: 'wall' | 'cpu' = 'wall'): Promise<number> {
  const start = process.hrtime.bigint()
  const cpu = process.cpuUsage()
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!
    await waterfall('tools/post-execute', execution(call.name, call.args, agent, i), call.result, accept)
  }
  if (clock === 'wall') return Number(process.hrtime.bigint() - start)
  const used = process.cpuUsage(cpu)
  return (used.user + used.system) * 1000
}

/**
 * Time each variant `ROUNDS` times, interleaved so drift hits all alike, in orders that balance which runs after which
 * (`roundOrder`); returns the median ns of each. Nothing runs between samples unless `BENCH_COLLECT=each` asks for a
 * full collection (`beforeTimedSample`): the orders are balanced, so the collections each variant's garbage makes fall
 * on all alike.
 */
export async function rounds<K extends string>(variants: Record<K, () => Promise<number>>): Promise<Record<K, number>> {
  const samples = Object.fromEntries(Object.keys(variants).map(k => [k, [] as number[]])) as Record<K, number[]>
  for (let round = 0; round < ROUNDS; round++) {
    for (const key of roundOrder(Object.keys(variants) as K[], round)) {
      beforeTimedSample(gc)
      samples[key].push(await variants[key]())
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v as number[])])) as Record<K, number>
}

/** Memory once the collector has run to the end (three full collections, each followed by a turn of the loop). */
export async function afterCollection(): Promise<NodeJS.MemoryUsage> {
  for (let i = 0; i < 3; i++) {
    gc()
    await new Promise(resolve => setImmediate(resolve))
  }
  return process.memoryUsage()
}
