/**
 * Progress: what separates work from a loop. The epoch moves on at a change the agent had not made before and at news
 * from a poller; chains of repeats begun before it are then broken.
 * Design: docs/design.md#progress
 * @module dsh-brake/core/progress
 */
import { createLruTable, type LruTable } from './tables/lru-table.js'
import { hold, release, sameResult, type ResultRef } from './evidence/results.js'
import type { CallObservation, Mutable } from './types.js'

/** One agent's progress. */
export interface Progress {
  /** The epoch `call` happened in, once it is judged (moved on when the call itself is progress). */
  observe(call: CallObservation): number
  /** The epoch now. */
  readonly epoch: number
  reset(): void
  /** Pollers whose latest result is remembered now. */
  readonly size: number
}

/** Create the progress of one agent, remembering the latest result of at most `maxPolls` poll identities. */
export function createProgress(maxPolls: number): Progress {
  let epoch = 0
  // The change that made the latest progress: making it again is no progress (every new change replaces it).
  let lastChange: number | undefined
  // Made at the first poll: most agents call no poller.
  let polled: LruTable | undefined
  // The latest result of each poll, per slot of `polled`.
  const polls: ResultRef[] = []

  // `epoch` and `size` fields, not getters (see `Mutable`).
  const state: Mutable<Progress> = {
    observe(call) {
      if (call.refused || (call.failed && !call.changeStands)) return epoch
      if (call.kind === 'mutating' && call.key !== lastChange) {
        state.epoch = ++epoch
        lastChange = call.key
      } else if (call.kind === 'poller') {
        polled ??= createLruTable(maxPolls)
        const slot = polled.use(call.key)
        state.size = polled.size
        if (!polled.added && !sameResult(polls[slot]!, call.result)) {
          state.epoch = ++epoch
          lastChange = undefined
        }
        // The slot's earlier result, whether this poll's or one forgotten, is no longer a latest here.
        if (polls[slot] !== undefined) release(polls[slot])
        polls[slot] = hold(call.result)
      }
      return epoch
    },
    epoch: 0,
    reset() {
      epoch = 0
      lastChange = undefined
      polled?.clear()
      polls.length = 0
      state.epoch = 0
      state.size = 0
    },
    size: 0,
  }
  return state
}
