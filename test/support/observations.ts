/**
 * Call observations for the core tests, built from the same call key and result record the plugin uses, so a test
 * names only what it is about: the tool, its arguments, and whatever it overrides.
 */
import { callKey } from '../../src/core/canonical.ts'
import { createResultVersions } from '../../src/core/result-versions.ts'
import { resultOf } from '../../src/core/results.ts'
import type { CallObservation, CallStep } from '../../src/core/types.ts'

/** What a test may override: anything, with the result given as its text. */
export type Override = Partial<Omit<CallObservation, 'result'>> & { result?: string }

/** A successful call of class `default` with result `ok`, unless overridden. */
export function callOf(tool: string, args: unknown = {}, { result = 'ok', ...over }: Override = {}): CallObservation {
  return { tool, args, key: callKey(tool, args)!, kind: 'default', result: resultOf(result), failed: false, refused: false, errorLine: undefined, ...over }
}

/**
 * Turn calls into steps as the brake state does: each identity's result version tracked by the real result-version
 * table, in the progress epoch given (0 unless said).
 */
export function createStepper(maxTracked = 1024): (call: CallObservation, epoch?: number) => CallStep {
  const versions = createResultVersions(maxTracked)
  return (call, epoch = 0) => ({ ...call, epoch, version: versions.observe(call.key, call.result, call.refused) })
}
