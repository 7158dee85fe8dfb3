/**
 * Call observations for the core tests, built from the same call key and result record the plugin uses, so a test
 * names only what it is about: the tool, its arguments, and whatever it overrides.
 */
import { callKey } from '../../src/core/canonical.ts'
import { createCallHistory } from '../../src/core/call-history.ts'
import { resultOf } from '../../src/core/results.ts'
import type { Detector } from '../../src/core/detectors/detector.ts'
import type { CallObservation, CallStep, Evidence, LoopFinding } from '../../src/core/types.ts'

/** What a test may override: anything, with the result given as its text. */
export type Override = Partial<Omit<CallObservation, 'result'>> & { result?: string }

/** A successful call of class `default` with result `ok`, unless overridden. */
export function callOf(tool: string, args: unknown = {}, { result = 'ok', ...over }: Override = {}): CallObservation {
  return { tool, args, key: callKey(tool, args)!, kind: 'default', result: resultOf(result), failed: false, refused: false, errorLine: undefined, inputError: false, changeStands: false, ...over }
}

/** A stepper: calls into steps, and an identity key to its number in the history (-1: not remembered). */
export type Stepper = ((call: CallObservation, epoch?: number) => CallStep) & { readonly slotOf: (key: number) => number }

/** Turn calls into steps as the brake state does, through the real call history, in the epoch given (0 unless said). */
export function createStepper(maxTracked = 1024): Stepper {
  const history = createCallHistory(maxTracked)
  return Object.assign((call: CallObservation, epoch = 0) => history.step(call, epoch), { slotOf: (key: number) => history.find(key) })
}

/** Progress between two calls, in a stream of calls `play` feeds. */
export const PROGRESS = '|'

/**
 * Feed `detector` the calls in order through a fresh stepper (`PROGRESS` moves the progress epoch on between two calls)
 * and return each finding with its call's position, counting calls from 1.
 */
export function play<F extends LoopFinding>(
  detector: Detector<CallStep, Evidence<F>>, calls: readonly (CallObservation | typeof PROGRESS)[],
): { at: number; found: Evidence<F> }[] {
  const step = createStepper()
  const found: { at: number; found: Evidence<F> }[] = []
  let epoch = 0
  let at = 0
  for (const call of calls) {
    if (call === PROGRESS) {
      epoch++
      continue
    }
    at++
    const evidence = detector.observe(step(call, epoch))
    if (evidence !== undefined) found.push({ at, found: evidence })
  }
  return found
}
