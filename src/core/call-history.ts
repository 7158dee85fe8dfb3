/**
 * What came before each call identity (its latest result, that result's version, the epoch of its latest call), from
 * which each call's step is made: its result version, and whether it is a revisit.
 * Design: docs/design.md#the-call-history
 * @module dsh-brake/core/call-history
 */
import { createLruTable } from './lru-table.js'
import { hold, NO_RESULT, release, sameResult, type ResultRef } from './results.js'
import type { CallObservation, CallStep } from './types.js'

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

interface Entry {
  result: ResultRef
  version: number
  /** The epoch of the identity's latest call; -1 before its first. */
  epoch: number
}

/** Create the history of at most `maxTracked` identities; the least recently seen is forgotten first. */
export function createCallHistory(maxTracked: number): CallHistory {
  const table = createLruTable(maxTracked)
  // Per slot of `table`; an entry is reused when its slot passes to another identity.
  const entries: Entry[] = []
  return {
    step(call, epoch) {
      const slot = table.use(call.key)
      let entry = entries[slot]
      if (entry === undefined) {
        entries[slot] = entry = { result: NO_RESULT, version: 0, epoch: -1 }
      } else if (table.added) {
        release(entry.result)
        entry.result = NO_RESULT
        entry.version = 0
        entry.epoch = -1
      }
      const before = entry.version
      // A refused attempt has no result of its own and leaves the version as it was. A first result is a new version
      // without a comparison (which could cost a normalization).
      if (!call.refused && (entry.result === NO_RESULT || !sameResult(entry.result, call.result))) entry.version++
      if (!call.refused) {
        release(entry.result)
        entry.result = hold(call.result)
      }
      const revisit = entry.epoch === epoch && entry.version === before
      entry.epoch = epoch
      return { call, epoch, version: entry.version, revisit, slot, fresh: table.added }
    },
    find: key => table.find(key),
    clear() {
      table.clear()
      entries.length = 0
    },
    get size() {
      return table.size
    },
  }
}
