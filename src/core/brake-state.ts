/**
 * Everything dsh-brake remembers about one agent: its progress, the history of its calls, and one instance of each
 * detector. Each call is judged in one pass: progress and history make its step, then every call detector reads the
 * same step and answers by return.
 * @module dsh-brake/core/brake-state
 */
import { createDuplicateTextDetector, type DuplicateTextOptions, type TextObservation } from './detectors/duplicate-text.js'
import { createErrorRepeatDetector, type ErrorRepeatOptions } from './detectors/error-repeats.js'
import { createIdenticalCallDetector, type IdenticalCallOptions } from './detectors/identical-calls.js'
import { createRevisitDetector, type RevisitOptions } from './detectors/revisits.js'
import { createSequenceDetector, type SequenceOptions } from './detectors/sequences.js'
import { createProgress } from './progress.js'
import { createCallHistory } from './call-history.js'
import { createRecentResults } from './results.js'
import type { CallObservation, DuplicateTextFinding, Finding } from './types.js'

/** Options of all detectors, and the bound of the call history. */
export interface BrakeOptions {
  /** Distinct call identities remembered: the call history, and the identical-call chains kept by its numbers. */
  readonly trackedCalls: number
  /**
   * Whether a run of revisits, once noticed, holds back the repeat counts of the calls it goes over (one loop, one
   * voice). Off in deny mode, where a repeat's notice also warns that the call is about to be refused.
   */
  readonly oneVoice: boolean
  readonly calls: IdenticalCallOptions
  readonly sequences: SequenceOptions
  readonly revisits: RevisitOptions
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
  /** Forget the calls (not the text): the agent's context was compacted, and what it dropped may be read again. */
  forgetCalls(): void
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
  const revisits = createRevisitDetector(options.revisits)
  const errors = createErrorRepeatDetector(options.errors)
  const text = createDuplicateTextDetector(options.text)
  const progress = createProgress(options.trackedCalls)
  const history = createCallHistory(options.trackedCalls)
  const recent = createRecentResults(RECENT_RESULTS, RECENT_RESULT_CHARS)
  // Whether the current run of revisits has had its notice.
  let goingOver = false

  function forgetCalls(): void {
    calls.reset()
    sequences.reset()
    revisits.reset()
    errors.reset()
    progress.reset()
    history.clear()
    recent.clear()
    goingOver = false
  }

  return {
    observeCall(call) {
      if (!call.refused) recent.remember(call.result)
      const step = history.step(call, progress.observe(call))
      const repeated = calls.observe(step)
      const failing = errors.observe(step)
      const lap = sequences.observe(step)
      const again = revisits.observe(step)
      // One loop, one voice: once a run of revisits has its notice, which names the calls it keeps going back to,
      // each call of the run reaching its own repeat count on the way round adds nothing but noise.
      goingOver = options.oneVoice && step.revisit && (goingOver || again !== undefined)
      const alone = goingOver ? undefined : repeated
      if (alone === undefined && failing === undefined && lap === undefined && again === undefined) return undefined
      return [alone, failing, lap, again].filter(found => found !== undefined)
    },
    observeText: observation => text.observe(observation),
    callCount: key => calls.count(history.find(key), progress.epoch),
    size: () => ({
      ...calls.size(), ...sequences.size(), ...revisits.size(), ...errors.size(), ...text.size(), polls: progress.size,
      history: history.size, recentResults: recent.size().results, recentChars: recent.size().chars,
    }),
    reset() {
      forgetCalls()
      text.reset()
    },
    forgetCalls,
  }
}
