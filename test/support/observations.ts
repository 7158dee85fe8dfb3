/**
 * Call observations for the core tests, built from the same call key and result record the plugin uses, so a test
 * names only what it is about: the tool, its arguments, and whatever it overrides.
 */
import { callKey } from '../../src/core/identity/canonical.ts'
import { createCallHistory } from '../../src/core/call-history.ts'
import { failureOf, shownBy } from '../../src/core/evidence/failures.ts'
import { shellEdits, toolEdits } from '../../src/core/evidence/file-edits.ts'
import { createProgress } from '../../src/core/progress.ts'
import { resultOf } from '../../src/core/evidence/results.ts'
import type { Detector } from '../../src/core/detectors/detector.ts'
import type { CallObservation, CallStep } from '../../src/core/types.ts'
import type { Evidence, LoopFinding } from '../../src/core/kinds.ts'

/** What a test may override: anything, with the result given as its text. */
export type Override = Partial<Omit<CallObservation, 'result'>> & { result?: string }

/** A successful call of class `default` with result `ok`, unless overridden. */
export function callOf(tool: string, args: unknown = {}, { result = 'ok', ...over }: Override = {}): CallObservation {
  return { tool, args, key: callKey(tool, args)!, kind: 'default', result: resultOf(result), failed: false, refused: false, errorLine: undefined, inputError: false, changeStands: false, failure: undefined, edits: [], ...over }
}

/** A stepper: calls into steps, and an identity key to its number in the history (-1: not remembered). */
export type Stepper = ((call: CallObservation, epoch?: number) => CallStep) & { readonly slotOf: (key: number) => number }

/** Turn calls into steps as the brake state does, through the real call history, in the epoch given (0 unless said). */
export function createStepper(maxTracked = 1024): Stepper {
  const history = createCallHistory(maxTracked)
  return Object.assign((call: CallObservation, epoch = 0) => history.step(call, epoch), { slotOf: (key: number) => history.find(key) })
}

/**
 * A check (a shell command run) with its output, failed or not: its failure, or what it showed, read as the plugin
 * reads them; `over` adds the rest (its inputs, say).
 */
export function checkOf(command: string, output: string, failed = false, over: Override = {}): CallObservation {
  const failure = failureOf(output, failed)
  return callOf('bash', { command }, { result: output, failed, failure, shown: failure === undefined ? shownBy(output) : undefined, ...over })
}

/** A file tool's edit of `file_path`, replacing `old_string` with `new_string`, its edits read as the plugin reads them. */
export function editOf(file_path: string, old_string: string, new_string: string, over: Override = {}): CallObservation {
  const args = { file_path, old_string, new_string }
  return callOf('edit', args, { kind: 'mutating', edits: toolEdits({ file: 'file_path', old: 'old_string', new: 'new_string' }, args), ...over })
}

/** A shell command that changes files, its edits read from the command line. */
export function shellEditOf(command: string, over: Override = {}): CallObservation {
  return callOf('bash', { command }, { kind: 'mutating', result: '', edits: shellEdits(command), ...over })
}

/**
 * Feed calls to a detector that reads steps, through the real progress and call history, as the brake state does;
 * returns what it found at each call.
 */
export function observeAll<F>(
  detector: { observe(step: CallStep): { readonly finding: F } | undefined }, calls: readonly CallObservation[],
): (F | undefined)[] {
  const progress = createProgress(64)
  const history = createCallHistory(64)
  return calls.map(call => detector.observe(history.step(call, progress.observe(call)))?.finding)
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
