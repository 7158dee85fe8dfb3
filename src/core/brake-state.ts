/**
 * Everything dsh-brake remembers about one agent: one instance of each detector, bounded by configuration.
 * @module dsh-brake/core/brake-state
 */
import { createDuplicateTextDetector, type DuplicateTextOptions, type TextObservation } from './duplicate-text.js'
import { createIdenticalCallDetector, type IdenticalCallOptions } from './identical-calls.js'
import { createSequenceDetector, type SequenceOptions } from './sequences.js'
import type { CallObservation, DuplicateTextFinding, Finding } from './types.js'

/** Options of all detectors. */
export interface BrakeOptions {
  readonly calls: IdenticalCallOptions
  readonly sequences: SequenceOptions
  readonly text: DuplicateTextOptions
}

/** One agent's detectors. */
export interface BrakeState {
  /** Observe one executed call; returns every finding it tripped (usually none). */
  observeCall(call: CallObservation): Finding[] | undefined
  /** Observe the messages claimed for one step. */
  observeText(observation: TextObservation): DuplicateTextFinding | undefined
  /** How many times the call identity `key` was observed since the last reset. */
  callCount(key: string): number
  /** Forget everything. */
  reset(): void
}

/** Create the state of one agent. */
export function createBrakeState(options: BrakeOptions): BrakeState {
  const calls = createIdenticalCallDetector(options.calls)
  const sequences = createSequenceDetector(options.sequences)
  const text = createDuplicateTextDetector(options.text)
  return {
    observeCall(call) {
      const repeated = calls.observe(call)
      const cycle = sequences.observe(call)
      if (repeated === undefined) return cycle === undefined ? undefined : [cycle]
      return cycle === undefined ? [repeated] : [repeated, cycle]
    },
    observeText: observation => text.observe(observation),
    callCount: key => calls.count(key),
    reset() {
      calls.reset()
      sequences.reset()
      text.reset()
    },
  }
}
