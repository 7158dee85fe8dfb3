/**
 * Everything dsh-brake remembers about one agent: its progress, the result versions of its calls, and one instance of
 * each detector. Each call is judged in one pass: progress and result version first, then every call detector on the
 * same step, each answering by return.
 * @module dsh-brake/core/brake-state
 */
import { createDuplicateTextDetector, type DuplicateTextOptions, type TextObservation } from './detectors/duplicate-text.js'
import { createErrorRepeatDetector, type ErrorRepeatOptions } from './detectors/error-repeats.js'
import { createIdenticalCallDetector, type IdenticalCallOptions } from './detectors/identical-calls.js'
import { createSequenceDetector, type SequenceOptions } from './detectors/sequences.js'
import { createProgress } from './progress.js'
import { createResultVersions } from './result-versions.js'
import { createRecentResults } from './results.js'
import type { CallObservation, CallStep, DuplicateTextFinding, Finding } from './types.js'

/** Options of all detectors. */
export interface BrakeOptions {
  readonly calls: IdenticalCallOptions
  readonly sequences: SequenceOptions
  readonly errors: ErrorRepeatOptions
  readonly text: DuplicateTextOptions
}

/** One agent's detectors. */
export interface BrakeState {
  /**
   * Observe one executed or refused call; returns every finding it tripped (usually none). A refused call's `result`
   * is expected to be `REFUSED`.
   */
  observeCall(call: CallObservation): Finding[] | undefined
  /** Observe the messages claimed for one step. */
  observeText(observation: TextObservation): DuplicateTextFinding | undefined
  /** The length of the call identity `key`'s current chain (0 when progress broke it). */
  callCount(key: number): number
  /** Forget everything. */
  reset(): void
  /** How many entries each bounded structure holds now (for the bound checks in the tests). */
  size(): Readonly<Record<string, number>>
}

/**
 * Recent results whose text is kept per agent for lazy normalization (see `results.ts`): a repeat within this many
 * calls compares normalized even when its raw text differs.
 */
const RECENT_RESULTS = 256
/** Characters of recent result text kept per agent, at most. */
const RECENT_RESULT_CHARS = 65_536

/** Create the state of one agent. */
export function createBrakeState(options: BrakeOptions): BrakeState {
  const calls = createIdenticalCallDetector(options.calls)
  const sequences = createSequenceDetector(options.sequences)
  const errors = createErrorRepeatDetector(options.errors)
  const text = createDuplicateTextDetector(options.text)
  const progress = createProgress(options.calls.maxTracked)
  const versions = createResultVersions(options.calls.maxTracked)
  const recent = createRecentResults(RECENT_RESULTS, RECENT_RESULT_CHARS)

  return {
    observeCall(call) {
      if (!call.refused) recent.remember(call.result)
      const step: CallStep = {
        ...call,
        epoch: progress.observe(call),
        version: versions.observe(call.key, call.result, call.refused),
      }
      const repeated = calls.observe(step)
      const failing = errors.observe(step)
      const lap = sequences.observe(step)
      if (repeated === undefined && failing === undefined && lap === undefined) return undefined
      return [repeated, failing, lap].filter(found => found !== undefined)
    },
    observeText: observation => text.observe(observation),
    callCount: key => calls.count(key, progress.epoch),
    size: () => ({
      ...calls.size(), ...sequences.size(), ...errors.size(), ...text.size(), polls: progress.size,
      versions: versions.size, recentResults: recent.size().results, recentChars: recent.size().chars,
    }),
    reset() {
      calls.reset()
      sequences.reset()
      errors.reset()
      text.reset()
      progress.reset()
      versions.clear()
      recent.clear()
    },
  }
}
