/**
 * Identical calls: the same tool with the same canonical arguments, per agent over the whole run, not only back to
 * back. Progress-aware, a repeat extends its chain only when its result is the chain's and nothing moved, so "poll
 * until done" and "edit, then re-run the test" never add up.
 * Design: docs/design.md#identical-calls
 * @module dsh-brake/core/detectors/identical-calls
 */
import { canonicalJson } from '../identity/canonical.js'
import type { CallStep } from '../types.js'
import type { Evidence, IdenticalCallsFinding } from '../kinds.js'
import { isDue, type Detector, type Schedule } from './detector.js'

/** Thresholds of the identical-call detector. */
export interface IdenticalCallsOptions {
  /** When notices fall: `first` is the chain length (first call included) whose result carries the first notice. */
  readonly schedule: Schedule
  /** The same for pollers, which are expected to repeat: an unchanged status is waiting for a while before it is a loop. */
  readonly pollSchedule: Schedule
  /** Count only repeats without progress (true), or every repeat (false). */
  readonly progressAware: boolean
}

/** The identical-call detector, plus what the deny guard asks of it. */
export interface IdenticalCallsDetector extends Detector<CallStep, Evidence<IdenticalCallsFinding>> {
  /**
   * The length of the chain of the identity numbered `slot` in the call history (-1: not remembered), as it stands in
   * progress epoch `epoch`: 0 when unknown, or (progress-aware) broken by progress made since it was last extended.
   */
  count(slot: number, epoch: number): number
  /** How many calls of that chain were refused before they ran (0 when the chain is unknown or broken). */
  refusedCount(slot: number, epoch: number): number
}

/** Flags of a chain, a bit each. */
const AWARE = 1
const FAILED = 2
const CHANGED = 4

/** Create an identical-call detector. */
export function createIdenticalCallsDetector(options: IdenticalCallsOptions): IdenticalCallsDetector {
  // The chains, by the identity's number in the call history (a chain is restarted when its number passes to another
  // identity), a column per field rather than an object per identity: a full history holds a thousand of them.
  // n: calls in the chain, the latest included; version: the result version of its latest call; noticed: the chain
  // length at the latest notice (0 before the first); refused: calls of the chain refused before they ran (`n` less
  // these is what ran); flags: counted progress-aware (a poller always is), failed, a result changed within the chain
  // (plain counting only). Plain columns, not typed ones (see columns.ts): every agent makes them, and most number a
  // few dozen identities; the call history hands numbers out in order, so each column only ever grows at its end.
  const n: number[] = []
  const versions: number[] = []
  const epochs: number[] = []
  const noticed: number[] = []
  const refused: number[] = []
  const flags: number[] = []
  // Slots below this have a chain; the others are unknown (a reset keeps the columns, and starts their chains afresh).
  let known = 0

  /** Start the chain at `slot` afresh (a new one, or one whose number passed to another identity). */
  function restart(slot: number): void {
    n[slot] = 0
    versions[slot] = 0
    epochs[slot] = 0
    noticed[slot] = 0
    refused[slot] = 0
    flags[slot] = AWARE
  }

  return {
    observe({ call, epoch, version, slot, fresh }) {
      if (slot >= known) {
        // Written in order, so the columns never have holes.
        for (let other = known; other <= slot; other++) restart(other)
        known = slot + 1
      } else if (fresh) {
        restart(slot)
      }
      const aware = options.progressAware || call.kind === 'poller'
      if (call.refused) {
        // A refused attempt has no result of its own: it extends the chain it was refused for.
        n[slot]!++
        refused[slot]!++
      } else {
        const same = n[slot]! > 0 && versions[slot] === version
        if (n[slot] === 0 || (aware && (epochs[slot] !== epoch || !same))) {
          n[slot] = 1
          flags[slot]! &= ~CHANGED
          noticed[slot] = 0
          refused[slot] = 0
        } else {
          n[slot]!++
          if (!same) flags[slot]! |= CHANGED
        }
        versions[slot] = version
        epochs[slot] = epoch
        flags[slot] = (flags[slot]! & CHANGED) | (aware ? AWARE : 0) | (call.failed ? FAILED : 0)
      }
      const count = n[slot]!
      if (!isDue(call.kind === 'poller' ? options.pollSchedule : options.schedule, count, noticed[slot]!)) return undefined
      noticed[slot] = count
      const evidence = (flags[slot]! & CHANGED) !== 0 ? 'changed' : (flags[slot]! & FAILED) !== 0 ? 'same-failure' : 'same-result'
      const finding: IdenticalCallsFinding = {
        kind: 'identical-calls', tool: call.tool, toolClass: call.kind, args: canonicalJson(call.args) ?? 'null', count, evidence,
      }
      return { finding, calls: [call.key] }
    },
    count: (slot, epoch) => live(flags, epochs, known, slot, epoch) ? n[slot]! : 0,
    refusedCount: (slot, epoch) => live(flags, epochs, known, slot, epoch) ? refused[slot]! : 0,
    reset() {
      known = 0
    },
    size: () => ({ calls: known }),
  }
}

/**
 * Whether the chain numbered `slot` stands in `epoch`: known (below `known`), and (progress-aware) not broken by
 * progress. A function of the module, not a closure: it is made once, not for every agent.
 */
function live(flags: readonly number[], epochs: readonly number[], known: number, slot: number, epoch: number): boolean {
  return slot !== -1 && slot < known && ((flags[slot]! & AWARE) === 0 || epochs[slot] === epoch)
}
