/**
 * Cycles: p pairwise-distinct calls (2 ≤ p ≤ `maxLength`) repeated back to back, each with its result, so a cycle
 * whose output changes from lap to lap is not a loop. One run length per period makes the check O(maxLength) a call,
 * with no scan of the history; only the shortest period is reported.
 * Design: docs/design.md#cycles
 * @module dsh-brake/core/detectors/cycle
 */
import { zeros } from '../tables/columns.js'
import type { CallStep } from '../types.js'
import type { Evidence, CycleFinding } from '../kinds.js'
import { isDue, type Detector, type Schedule } from './detector.js'

/** Thresholds of the cycle detector. */
export interface CycleOptions {
  /** The longest cycle looked for (at least 2). */
  readonly maxLength: number
  /** When notices fall on a running loop's laps: `first` is the number of back-to-back laps that make a loop. */
  readonly schedule: Schedule
  /** Whether results are part of what must repeat (progress-aware counting); reported in findings. */
  readonly progressAware: boolean
}

/** Create a cycle detector. */
export function createCycleDetector(options: CycleOptions): Detector<CallStep, Evidence<CycleFinding>> {
  const { maxLength, schedule, progressAware } = options
  // Ring buffer of the last maxLength + 1 calls: enough to compare the current call with the one p places back.
  const size = maxLength + 1
  // Plain columns, not typed ones: every agent makes them (see columns.ts).
  const keys = zeros(size)
  const versions = zeros(size)
  const tools: string[] = new Array<string>(size).fill('')
  // runs[p]: calls in a row equal to the call p places earlier; noticed[p]: laps at the last notice of that run.
  const runs = zeros(maxLength + 1)
  const noticed = zeros(maxLength + 1)
  let seen = 0

  return {
    observe(step) {
      const call = step.call
      const slot = seen % size
      const key = call.key
      const version = progressAware ? step.version : 0
      keys[slot] = key
      versions[slot] = version
      tools[slot] = call.tool
      seen++
      let found: Evidence<CycleFinding> | undefined
      for (let period = 2; period <= maxLength; period++) {
        const back = slotBack(seen, size, period)
        if (seen <= period || keys[back] !== key || versions[back] !== version) {
          runs[period] = 0
          noticed[period] = 0
          continue
        }
        const run = ++runs[period]!
        const span = run + period
        if (found !== undefined || span % period !== 0) continue
        const done = span / period
        if (!isDue(schedule, done, noticed[period]!) || !distinctLap(keys, versions, seen, size, period)) continue
        noticed[period] = done
        const lap: string[] = []
        const calls: number[] = []
        for (let i = period - 1; i >= 0; i--) {
          lap.push(tools[slotBack(seen, size, i)]!)
          calls.push(keys[slotBack(seen, size, i)]!)
        }
        found = { finding: { kind: 'cycle', tools: lap, laps: done, sameResults: progressAware }, calls }
      }
      return found
    },
    reset() {
      seen = 0
      runs.fill(0)
      noticed.fill(0)
    },
    size: () => ({ window: Math.min(seen, size) }),
  }
}

// The ring's helpers take it as arguments rather than closing over it: functions of the module are made once, where
// closures would be made for every agent.

/** The slot of the call `back` places before the latest, in a ring of `size` slots that has seen `seen` calls. */
function slotBack(seen: number, size: number, back: number): number {
  return (((seen - 1 - back) % size) + size) % size
}

/** Whether the latest `period` calls of the ring are pairwise distinct (key and result version). */
function distinctLap(keys: readonly number[], versions: readonly number[], seen: number, size: number, period: number): boolean {
  for (let i = 0; i < period; i++) {
    const slot = slotBack(seen, size, i)
    for (let j = i + 1; j < period; j++) {
      const other = slotBack(seen, size, j)
      if (keys[other] === keys[slot] && versions[other] === versions[slot]) return false
    }
  }
  return true
}
