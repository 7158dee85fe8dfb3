import { identifyCall } from '../../src/core/canonical.ts'
import { resultOf } from '../../src/core/results.ts'
import type { CallObservation, EpochObservation } from '../../src/core/types.ts'

/** What a test may override: anything, with the result given as its text. */
export type Override = Partial<Omit<CallObservation, 'result'>> & { result?: string }

/** A successful call of class `default` with result `ok`, unless overridden. */
export function callOf(tool: string, args: unknown = {}, { result = 'ok', ...over }: Override = {}): CallObservation {
  return { tool, ...identifyCall(tool, args)!, kind: 'default', result: resultOf(result), failed: false, refused: false, errorLine: undefined, epoch: 0, ...over }
}

/** The same, in progress epoch `epoch` (0 unless overridden), for the detectors that take epochs. */
export function inEpoch(call: CallObservation, epoch = 0): EpochObservation {
  return { ...call, epoch }
}
