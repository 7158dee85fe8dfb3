/**
 * Identical calls: the same tool with the same canonical arguments, counted per agent over the whole run since the
 * last reset, not only back to back (a model that re-reads a file between two other calls is still re-reading it).
 * @module dsh-brake/core/identical-calls
 */
import { touch } from './bounded-map.js'
import type { CallObservation, Detector, RepeatedCallFinding } from './types.js'

/** Thresholds of the identical-call detector. */
export interface IdenticalCallOptions {
  /** The call count (first call included) whose result carries the first notice. */
  readonly warnCount: number
  /** After the first notice, another notice every this many further calls. */
  readonly reWarnEvery: number
  /** How many distinct call identities are remembered; the least recently seen is forgotten first. */
  readonly maxTracked: number
}

/** The identical-call detector, plus the count lookup the deny guard needs. */
export interface IdenticalCallDetector extends Detector<CallObservation, RepeatedCallFinding> {
  /** How many times `key` has been observed since the last reset (0 when unknown or forgotten). */
  count(key: string): number
}

/** Whether the `count`-th identical call carries a notice: at `warnCount`, then every `reWarnEvery` after it. */
export function isNoticeCount(count: number, warnCount: number, reWarnEvery: number): boolean {
  return count >= warnCount && (count - warnCount) % reWarnEvery === 0
}

/** Create an identical-call detector. */
export function createIdenticalCallDetector(options: IdenticalCallOptions): IdenticalCallDetector {
  const counts = new Map<string, { n: number }>()
  const fresh = (): { n: number } => ({ n: 0 })
  return {
    observe(call) {
      const entry = touch(counts, call.key, options.maxTracked, fresh)
      const count = ++entry.n
      if (!isNoticeCount(count, options.warnCount, options.reWarnEvery)) return undefined
      return { kind: 'repeated-call', tool: call.tool, args: call.args, count }
    },
    count(key) {
      return counts.get(key)?.n ?? 0
    },
    reset() {
      counts.clear()
    },
  }
}
