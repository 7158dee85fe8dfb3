/**
 * Identical calls: the same tool with the same canonical arguments, per agent over the whole run, not only back to
 * back. Progress-aware, a repeat extends its chain only when its result is the chain's and nothing moved, so "poll
 * until done" and "edit, then re-run the test" never add up.
 * Design: docs/design.md#identical-calls
 * @module dsh-brake/core/detectors/identical-calls
 */
import { canonicalJson } from '../canonical.js'
import type { CallStep, Evidence, IdenticalCallsFinding } from '../types.js'
import { isDue, type Detector, type Schedule } from './detector.js'

/** Thresholds of the identical-call detector. */
export interface IdenticalCallOptions {
  /** When notices fall: `first` is the chain length (first call included) whose result carries the first notice. */
  readonly schedule: Schedule
  /** The same for pollers, which are expected to repeat: an unchanged status is waiting for a while before it is a loop. */
  readonly pollSchedule: Schedule
  /** Count only repeats without progress (true), or every repeat (false). */
  readonly progressAware: boolean
}

/** The identical-call detector, plus what the deny guard asks of it. */
export interface IdenticalCallDetector extends Detector<CallStep, Evidence<IdenticalCallsFinding>> {
  /**
   * The length of the chain of the identity numbered `slot` in the call history (-1: not remembered), as it stands in
   * progress epoch `epoch`: 0 when unknown, or (progress-aware) broken by progress made since it was last extended.
   */
  count(slot: number, epoch: number): number
  /** How many calls of that chain were refused before they ran (0 when the chain is unknown or broken). */
  refusedCount(slot: number, epoch: number): number
}

interface Chain {
  /** Calls in the chain, the latest included. */
  n: number
  /** The result version of the chain's latest call. */
  version: number
  epoch: number
  /** Whether the chain was counted progress-aware (a poller always is). */
  aware: boolean
  failed: boolean
  /** Whether a result changed within the chain (plain counting only). */
  changed: boolean
  /** The chain length at the latest notice, 0 before the first. */
  noticed: number
  /** Calls of the chain refused before they ran: `n` less these is what ran. */
  refused: number
}

function restart(chain: Chain): void {
  chain.n = 0
  chain.version = 0
  chain.epoch = 0
  chain.aware = true
  chain.failed = false
  chain.changed = false
  chain.noticed = 0
  chain.refused = 0
}

/** Create an identical-call detector. */
export function createIdenticalCallDetector(options: IdenticalCallOptions): IdenticalCallDetector {
  // By the identity's number in the call history; a chain is reused when its number passes to another identity.
  const chains: Chain[] = []

  function chainOf(slot: number, fresh: boolean): Chain {
    let chain = chains[slot]
    if (chain === undefined) {
      chains[slot] = chain = { n: 0, version: 0, epoch: 0, aware: true, failed: false, changed: false, noticed: 0, refused: 0 }
    } else if (fresh) {
      restart(chain)
    }
    return chain
  }

  /** The chain numbered `slot` as it stands in `epoch`: none when unknown or (progress-aware) broken by progress. */
  function liveChain(slot: number, epoch: number): Chain | undefined {
    const chain = slot === -1 ? undefined : chains[slot]
    return chain === undefined || (chain.aware && chain.epoch !== epoch) ? undefined : chain
  }

  return {
    observe({ call, epoch, version, slot, fresh }) {
      const chain = chainOf(slot, fresh)
      const aware = options.progressAware || call.kind === 'poller'
      if (call.refused) {
        // A refused attempt has no result of its own: it extends the chain it was refused for.
        chain.n++
        chain.refused++
      } else {
        const same = chain.n > 0 && chain.version === version
        if (chain.n === 0 || (aware && (chain.epoch !== epoch || !same))) {
          chain.n = 1
          chain.changed = false
          chain.noticed = 0
          chain.refused = 0
        } else {
          chain.n++
          if (!same) chain.changed = true
        }
        chain.version = version
        chain.epoch = epoch
        chain.aware = aware
        chain.failed = call.failed
      }
      if (!isDue(call.kind === 'poller' ? options.pollSchedule : options.schedule, chain.n, chain.noticed)) return undefined
      chain.noticed = chain.n
      const evidence = chain.changed ? 'changed' : chain.failed ? 'same-failure' : 'same-result'
      const finding: IdenticalCallsFinding = {
        kind: 'identical-calls', tool: call.tool, toolClass: call.kind, args: canonicalJson(call.args) ?? 'null', count: chain.n, evidence,
      }
      return { finding, calls: [call.key] }
    },
    count: (slot, epoch) => liveChain(slot, epoch)?.n ?? 0,
    refusedCount: (slot, epoch) => liveChain(slot, epoch)?.refused ?? 0,
    reset() {
      chains.length = 0
    },
    size: () => ({ calls: chains.length }),
  }
}
