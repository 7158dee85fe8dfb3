import { identifyCall } from '../../src/core/canonical.ts'
import type { CallObservation, EpochObservation } from '../../src/core/types.ts'

/** A successful call of class `default` with result `ok`, unless overridden. */
export function callOf(tool: string, args: unknown = {}, over: Partial<CallObservation> = {}): CallObservation {
  return { tool, ...identifyCall(tool, args), kind: 'default', result: 'ok', failed: false, refused: false, ...over }
}

/** The same, in progress epoch `epoch` (0 unless overridden), for the detectors that take epochs. */
export function inEpoch(call: CallObservation, epoch = 0): EpochObservation {
  return { ...call, epoch }
}
