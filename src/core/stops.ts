/**
 * Stop mode's rule: a loop that goes on without progress after the brake spoke about it (its second notice, as the
 * voice knows the loop, or a refused call) ends the turn. A poller's unchanged status, duplicate context text and the
 * loops judged across progress (edits that undo each other, the same failure after every fix) never stop a turn, nor
 * does a loop of calls that brought no news (near-duplicates, paging over old ground): it is read from what results
 * said, not seen repeating exactly, so it is told but is never the first of the two notices a stop needs.
 * Design: docs/design.md#stop-mode
 * @module dsh-brake/core/stops
 */
import { canonicalJson } from './identity/canonical.js'
import type { CallObservation } from './types.js'
import { KINDS, type LoopFinding } from './kinds.js'
import type { Told } from './voice.js'

/** Why a turn ends: the loop that went on, and whether its last call was refused. */
export interface StopCause {
  readonly loop: LoopFinding
  /** Whether the call that settled it was refused (its notice came earlier in the same chain). */
  readonly refused: boolean
}

/** A counted call, as the rule reads it. */
export interface CountedCall {
  readonly call: CallObservation
  /** What the brake tells of the call's loop now, if anything. */
  readonly told: Told | undefined
  /**
   * The length of the call's chain of identical calls, the call included: what a refused call's cause reports, as the
   * refusal itself does (a call that was not refused never reads it).
   */
  readonly chainLength: number
}

/** The stop cause, if this call settles one. */
export function stopCause({ call, told, chainLength }: CountedCall): StopCause | undefined {
  const cause = loopStopCause(told)
  if (cause !== undefined) return { ...cause, refused: call.refused }
  if (!call.refused || call.kind === 'poller') return undefined
  return {
    loop: { kind: 'identical-calls', tool: call.tool, toolClass: call.kind, args: canonicalJson(call.args) ?? 'null', count: chainLength, evidence: 'same-result' },
    refused: true,
  }
}

/**
 * The stop cause when `told` is a loop's second notice (or later) on exact repetition: the loop went on after it was
 * told. Notices about calls that brought no news count for neither: stops rest on what repeated exactly, as before.
 */
export function loopStopCause(told: Told | undefined): StopCause | undefined {
  if (told?.exactBefore !== true) return undefined
  const loop = told.finding
  if (loop.kind === 'identical-calls' && loop.toolClass === 'poller') return undefined
  if (!KINDS[loop.kind].stops) return undefined
  return { loop, refused: false }
}

/** How many calls (or responses) the loop took, as far as the brake counted them. */
export function loopCalls(loop: LoopFinding): number {
  if (loop.kind === 'cycle') return loop.laps * loop.tools.length
  return loop.kind === 'runaway' ? loop.cuts : loop.count
}
