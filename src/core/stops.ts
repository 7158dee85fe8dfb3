/**
 * Stop mode's rule: when a loop has gone on without progress after the brake spoke about it, the turn ends.
 *
 * "Spoke about it" is one of two things: the brake is about to give the loop its second notice (the voice knows the
 * loop across detectors: a cycle whose calls then also repeat is the same loop), or the call was refused, which in deny
 * and stop modes only happens to a call whose identical repeats already drew a notice (the refusal count lies above
 * the notice count). Progress starts every loop afresh, so a loop that moved is never a second notice, and never a
 * stop.
 *
 * Two kinds of loop never stop a turn: a poller waiting on something (an unchanged status is patience, as in deny mode,
 * which never refuses one), and repeated text in the context (a hook or plugin writes it, not the model). Nor does a
 * notice led by calls that brought no news (near-duplicates, paging over old ground): that evidence is read from what
 * the results said, not seen repeating exactly, so it is told but neither ends a turn nor counts as the first of the
 * two notices a stop needs. A loop told so that goes on to repeat exactly stops where it would have without it: at
 * the second notice on its exact repetition.
 * @module dsh-brake/core/stops
 */
import { canonicalJson } from './canonical.js'
import type { LoopFinding, CallObservation } from './types.js'
import { NO_NEWS, type Told } from './voice.js'

/** Why a turn ends: the loop that went on, and whether its last call was refused. */
export interface StopCause {
  readonly loop: LoopFinding
  /** Whether the call that settled it was refused (its notice came earlier in the same chain). */
  readonly refused: boolean
}

/**
 * The stop cause, if this call settles one. `told` is what the brake tells of the call's loop now, if anything;
 * `chain` is the length of the call's chain of identical calls, the call included (what a refused call's cause
 * reports, as the refusal itself does).
 */
export function stopCause(call: CallObservation, told: Told | undefined, chain: number): StopCause | undefined {
  const cause = loopStopCause(told)
  if (cause !== undefined) return { ...cause, refused: call.refused }
  if (!call.refused || call.kind === 'poller') return undefined
  return {
    loop: { kind: 'identical-calls', tool: call.tool, toolClass: call.kind, args: canonicalJson(call.args) ?? 'null', count: chain, evidence: 'same-result' },
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
  if (NO_NEWS.has(loop.kind)) return undefined
  return { loop, refused: false }
}

/** How many calls (or responses) the loop took, as far as the brake counted them. */
export function loopCalls(loop: LoopFinding): number {
  if (loop.kind === 'cycle') return loop.laps * loop.tools.length
  return loop.kind === 'runaway' ? loop.cuts : loop.count
}
