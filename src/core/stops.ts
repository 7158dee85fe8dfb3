/**
 * Stop mode's rule: when a loop has gone on without progress after the brake spoke about it, the turn ends.
 *
 * "Spoke about it" is one of two things: the brake is about to give the loop its second notice (the voice knows the
 * loop across detectors: a cycle whose calls then also repeat is the same loop), or the call was refused, which in deny
 * and stop modes only happens to a call whose identical repeats already drew a notice (the refusal count lies above
 * the notice count). Progress starts every loop afresh, so a loop that moved is never a second notice, and never a
 * stop.
 *
 * Some kinds of loop never stop a turn: a poller waiting on something (an unchanged status is patience, as in deny
 * mode, which never refuses one), repeated text in the context (a hook or plugin writes it, not the model), and the
 * loops judged across progress, edits that undo each other and the same failure after every fix: each of their calls
 * changed something, so the brake cannot say, as a stop does, that nothing is changing; its notice is all it says.
 * @module dsh-brake/core/stops
 */
import { canonicalJson } from './canonical.js'
import type { LoopFinding, CallObservation } from './types.js'
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

/** The stop cause when `told` is a loop's second notice (or later): the loop went on after it was told. */
export function loopStopCause(told: Told | undefined): StopCause | undefined {
  if (told?.again !== true) return undefined
  const loop = told.finding
  if (loop.kind === 'identical-calls' && loop.toolClass === 'poller') return undefined
  if (ACROSS_PROGRESS.has(loop.kind)) return undefined
  return { loop, refused: false }
}

/** The kinds of loop judged across progress: told, never refused, never stopped. */
const ACROSS_PROGRESS: ReadonlySet<LoopFinding['kind']> = new Set(['edit-revert', 'same-failure'])

/** How many calls (or responses) the loop took, as far as the brake counted them. */
export function loopCalls(loop: LoopFinding): number {
  if (loop.kind === 'cycle') return loop.laps * loop.tools.length
  return loop.kind === 'runaway' ? loop.cuts : loop.count
}
