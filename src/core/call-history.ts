/**
 * What came before each call identity (its latest result, that result's version, the epoch of its latest call), from
 * which each call's step is made: its result version, and whether it is a revisit.
 * Design: docs/design.md#the-call-history
 * @module dsh-brake/core/call-history
 */
import { createLruTable } from './tables/lru-table.js'
import { hold, NO_RESULT, release, sameResult, type ResultRef } from './evidence/results.js'
import type { CallObservation, CallStep, Mutable } from './types.js'

/** The history of a bounded number of call identities. */
export interface CallHistory {
  /**
   * The step of `call`, made in progress epoch `epoch` (the epoch once the call itself is judged). Every call is
   * passed, refused ones included, so that the least recently seen identity is forgotten first.
   */
  step(call: CallObservation, epoch: number): CallStep
  /** The number of identity `key`, or -1 when it is not remembered. */
  find(key: number): number
  clear(): void
  /** Identities remembered now. */
  readonly size: number
}

/** Create the history of at most `maxTracked` identities; the least recently seen is forgotten first. */
export function createCallHistory(maxTracked: number): CallHistory {
  const table = createLruTable(maxTracked)
  // Per slot of `table`, a column per field rather than an object per identity (a full history holds a thousand): the
  // identity's latest result, that result's version, and the epoch of its latest call (-1 before its first). A slot's
  // fields are started afresh when it passes to another identity. Slots are handed out in order, so each column only
  // ever grows by one at its end.
  const results: ResultRef[] = []
  const versions: number[] = []
  const epochs: number[] = []
  // `size` a field, not a getter (see `Mutable`).
  const history: Mutable<CallHistory> = {
    step(call, epoch) {
      const slot = table.use(call.key)
      history.size = table.size
      if (slot === results.length) {
        results.push(NO_RESULT)
        versions.push(0)
        epochs.push(-1)
      } else if (table.added) {
        release(results[slot]!)
        results[slot] = NO_RESULT
        versions[slot] = 0
        epochs[slot] = -1
      }
      const latest = results[slot]!
      const before = versions[slot]!
      // A refused attempt has no result of its own and leaves the version as it was. A first result is a new version
      // without a comparison (which could cost a normalization).
      const version = !call.refused && (latest === NO_RESULT || !sameResult(latest, call.result)) ? before + 1 : before
      versions[slot] = version
      if (!call.refused) {
        release(latest)
        results[slot] = hold(call.result)
      }
      const revisit = epochs[slot] === epoch && version === before
      epochs[slot] = epoch
      return { call, epoch, version, revisit, slot, fresh: table.added }
    },
    find: key => table.find(key),
    clear() {
      table.clear()
      results.length = 0
      versions.length = 0
      epochs.length = 0
      history.size = 0
    },
    size: 0,
  }
  return history
}
