/**
 * Going over the same ground: a run of consecutive calls that each repeat an earlier call with the result it gave then,
 * of any period or drifting, which a cycle detector of bounded length cannot see. Plain repeats and short cycles are
 * left to their own detectors, so one loop gets one kind of notice.
 * Design: docs/design.md#going-over-the-same-ground
 * @module dsh-brake/core/detectors/same-ground
 */
import { canonicalJson } from '../identity/canonical.js'
import { zeros } from '../tables/columns.js'
import type { CallStep } from '../types.js'
import type { Evidence, SameGroundFinding } from '../kinds.js'
import { isDue, type Detector, type Schedule } from './detector.js'

/** Thresholds of the same-ground detector. */
export interface SameGroundOptions {
  /** When notices fall: `first` is the number of consecutive revisits that make a loop. */
  readonly schedule: Schedule
  /** The longest cycle the cycle detector looks for: runs that are such a cycle are its business. */
  readonly ownedPeriod: number
}

/** Calls of the current run remembered for the notice (its latest ones); a longer run is named by these. */
const RUN_WINDOW = 64
/** Distinct calls a finding names at most. */
const NAMED_CALLS = 4

interface RunCall {
  readonly tool: string
  readonly key: number
  readonly args: unknown
}

/** Create a same-ground detector. */
export function createSameGroundDetector(options: SameGroundOptions): Detector<CallStep, Evidence<SameGroundFinding>> {
  // The run's latest calls, a ring of RUN_WINDOW slots in three parallel arrays, filled in order as the run goes on
  // and emptied when it ends, so an agent that goes over no old ground keeps nothing in them; `run` counts the whole run.
  const tools: string[] = []
  const keys: number[] = []
  const args: unknown[] = []
  let run = 0
  let noticed = 0
  // matching[p]: the run's calls in a row that repeat the call p places before them (for p up to ownedPeriod). Made
  // at the first revisit: most agents never go over old ground.
  let matching: number[] | undefined

  return {
    observe({ call, revisit }) {
      if (!revisit) {
        if (run > 0) {
          run = 0
          noticed = 0
          matching!.fill(0)
          // The arguments of an ended run are no longer needed: let them go (a file tool's could be a whole file).
          args.length = 0
          tools.length = 0
          keys.length = 0
        }
        return undefined
      }
      matching ??= zeros(options.ownedPeriod + 1)
      const slot = run % RUN_WINDOW
      tools[slot] = call.tool
      keys[slot] = call.key
      args[slot] = call.args
      run++
      for (let period = 1; period <= options.ownedPeriod; period++) {
        matching[period] = run > period && call.key === keyBack(keys, run, period) ? matching[period]! + 1 : 0
      }
      if (!isDue(options.schedule, run, noticed)) return undefined
      // The other detectors' business: nothing to say now, and the next look comes on the schedule, not every call.
      noticed = run
      if (owned(keys, run, matching, options.ownedPeriod)) return undefined
      const calls = runCalls(tools, keys, args, run)
      return { finding: { kind: 'same-ground', count: run, calls: named(calls) }, calls: [...new Set(calls.map(call => call.key))] }
    },
    reset() {
      tools.length = 0
      keys.length = 0
      args.length = 0
      run = 0
      noticed = 0
      matching?.fill(0)
    },
    size: () => ({ runWindow: Math.min(run, RUN_WINDOW) }),
  }
}

// The run's helpers take its ring as arguments rather than closing over it: functions of the module are made once,
// where closures would be made for every agent.

/** The run's calls still in the window, oldest first. */
function runCalls(tools: readonly string[], keys: readonly number[], args: readonly unknown[], run: number): RunCall[] {
  const count = Math.min(run, RUN_WINDOW)
  const calls: RunCall[] = []
  for (let back = count - 1; back >= 0; back--) {
    const slot = (run - 1 - back) % RUN_WINDOW
    calls.push({ tool: tools[slot]!, key: keys[slot]!, args: args[slot] })
  }
  return calls
}

/** The key of the run's call `back` places before its latest (within the window). */
function keyBack(keys: readonly number[], run: number, back: number): number {
  return keys[(run - 1 - back) % RUN_WINDOW]!
}

/**
 * Whether the run (as far as the window reaches) is a plain repeat, or a cycle of distinct calls the sequence
 * detector reports: periodic with that period across the window, every call of a lap distinct.
 */
function owned(keys: readonly number[], run: number, matching: readonly number[], ownedPeriod: number): boolean {
  const count = Math.min(run, RUN_WINDOW)
  for (let period = 1; period <= ownedPeriod && period < count; period++) {
    if (matching[period]! >= count - period && distinctLap(keys, run, period)) return true
  }
  return false
}

function distinctLap(keys: readonly number[], run: number, period: number): boolean {
  for (let i = 0; i < period; i++) for (let j = i + 1; j < period; j++) if (keyBack(keys, run, i) === keyBack(keys, run, j)) return false
  return true
}

/** The run's most repeated calls, most first (latest first among equals), with their canonical arguments. */
function named(calls: readonly RunCall[]): SameGroundFinding['calls'] {
  const counts = new Map<number, { call: RunCall; count: number; last: number }>()
  calls.forEach((call, index) => {
    const entry = counts.get(call.key)
    if (entry === undefined) counts.set(call.key, { call, count: 1, last: index })
    else {
      entry.count++
      entry.last = index
    }
  })
  return [...counts.values()]
    .sort((a, b) => b.count - a.count || b.last - a.last)
    .slice(0, NAMED_CALLS)
    .map(({ call, count }) => ({ tool: call.tool, args: canonicalJson(call.args) ?? 'null', count }))
}
