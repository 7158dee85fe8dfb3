/**
 * Identical calls: the same tool with the same canonical arguments, per agent, over the whole run since the last
 * reset, not only back to back (a model that re-reads a file between two other calls is still re-reading it).
 *
 * Progress-aware (the default), a repeat only extends the chain when nothing moved: the result is the same as the
 * chain's, and the agent made no progress (a new successful change) since the chain began. A changed result or new
 * progress starts the chain again at one, so "poll until done" and "edit, then re-run the test" never add up. Plain
 * counting counts every repeat. Pollers are always judged by their results.
 * @module dsh-brake/core/identical-calls
 */
import { canonicalJson } from './canonical.js'
import { createLruTable } from './lru-table.js'
import { NO_RESULT, sameResult, type ResultRef } from './results.js'
import type { Detector, EpochObservation, RepeatedCallFinding } from './types.js'

/** Thresholds of the identical-call detector. */
export interface IdenticalCallOptions {
  /** The chain length (first call included) whose result carries the first notice. */
  readonly warnCount: number
  /** After the first notice, another notice every this many further calls of the chain. */
  readonly reWarnEvery: number
  /** How many distinct call identities are remembered; the least recently seen is forgotten first. */
  readonly maxTracked: number
  /** Count only repeats without progress (true), or every repeat (false). */
  readonly progressAware: boolean
}

/** The identical-call detector, plus what the deny guard needs. */
export interface IdenticalCallDetector extends Detector<EpochObservation, RepeatedCallFinding> {
  /**
   * The length of `key`'s chain as it stands in progress epoch `epoch`: 0 when unknown, forgotten, or (progress-aware)
   * broken by progress made since it was last extended.
   */
  count(key: number, epoch: number): number
  /**
   * A number that changes whenever `key`'s result changes (as this detector judged it, normalized): what the sequence
   * detector compares instead of results. 0 for an unknown key.
   */
  version(key: number): number
}

/** Whether the `count`-th call of a chain carries a notice: at `warnCount`, then every `reWarnEvery` after it. */
export function isNoticeCount(count: number, warnCount: number, reWarnEvery: number): boolean {
  return count >= warnCount && (count - warnCount) % reWarnEvery === 0
}

interface Chain {
  n: number
  result: ResultRef
  version: number
  epoch: number
  aware: boolean
  failed: boolean
  changed: boolean
}

/** Create an identical-call detector. */
export function createIdenticalCallDetector(options: IdenticalCallOptions): IdenticalCallDetector {
  const table = createLruTable(options.maxTracked)
  // Per slot of `table`; a chain is reused when its slot passes to another call identity.
  const chains: Chain[] = []
  const fresh = (): Chain => ({ n: 0, result: NO_RESULT, version: 0, epoch: 0, aware: true, failed: false, changed: false })
  const chainOf = (key: number): Chain => {
    const slot = table.use(key)
    let chain = chains[slot]
    if (chain === undefined) {
      chains[slot] = chain = fresh()
    } else if (table.added) {
      chain.n = 0
      chain.result = NO_RESULT
      chain.version = 0
      chain.epoch = 0
      chain.aware = true
      chain.failed = false
      chain.changed = false
    }
    return chain
  }
  // The chain `observe` worked on last, and its key: `version` is asked for exactly that one right after.
  let lastKey = -1
  let lastChain: Chain | undefined
  return {
    observe(call) {
      const chain = chainOf(call.key)
      lastKey = call.key
      lastChain = chain
      const aware = options.progressAware || call.kind === 'poller'
      if (call.refused) {
        // A refused attempt has no result of its own: it extends the chain it was refused for.
        chain.n++
      } else {
        const same = chain.n > 0 && sameResult(chain.result, call.result)
        if (!same) chain.version++
        if (chain.n === 0 || (aware && (chain.epoch !== call.epoch || !same))) {
          chain.n = 1
          chain.changed = false
        } else {
          chain.n++
          if (!same) chain.changed = true
        }
        chain.result = call.result
        chain.epoch = call.epoch
        chain.aware = aware
        chain.failed = call.failed
      }
      if (!isNoticeCount(chain.n, options.warnCount, options.reWarnEvery)) return undefined
      const evidence = chain.changed ? 'changed' : chain.failed ? 'same-failure' : 'same-result'
      return { kind: 'repeated-call', tool: call.tool, toolClass: call.kind, args: canonicalJson(call.args) ?? 'null', count: chain.n, evidence }
    },
    version(key) {
      if (key === lastKey) return lastChain!.version
      const slot = table.find(key)
      return slot === -1 ? 0 : chains[slot]!.version
    },
    count(key, epoch) {
      const slot = table.find(key)
      if (slot === -1) return 0
      const chain = chains[slot]!
      return chain.aware && chain.epoch !== epoch ? 0 : chain.n
    },
    reset() {
      table.clear()
      chains.length = 0
      lastKey = -1
      lastChain = undefined
    },
    size: () => ({ calls: table.size }),
  }
}
