/**
 * Everything dsh-brake remembers about one agent: one instance of each detector, and the progress epoch they share.
 *
 * Progress is what separates work from a loop. The epoch moves on when the agent makes a change it had not made
 * before (a successful call of a mutating tool with arguments not already used since the last progress), and when a
 * poller reports something new (its result differs from its previous one: the world moved). Chains of repeats that
 * began before the epoch moved are then broken. A failed change is not progress, and neither is repeating the same
 * change: writing the same file with the same content ten times moves nothing.
 * @module dsh-brake/core/brake-state
 */
import { createLruTable } from './lru-table.js'
import { createDuplicateTextDetector, type DuplicateTextOptions, type TextObservation } from './duplicate-text.js'
import { createErrorRepeatDetector, type ErrorRepeatOptions } from './error-repeats.js'
import { createIdenticalCallDetector, type IdenticalCallOptions } from './identical-calls.js'
import { createRecentResults, sameResult, type ResultRef } from './results.js'
import { createSequenceDetector, type SequenceOptions } from './sequences.js'
import type { CallObservation, DuplicateTextFinding, Finding } from './types.js'

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
   * Observe one executed or refused call; returns every finding it tripped (usually none). Fills in the
   * observation's `epoch`. A refused call's `result` is expected to be `REFUSED`.
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
  let epoch = 0
  // The change that made the latest progress: making it again is no progress (every new change replaces it).
  let lastChange: number | undefined
  // The latest result of each poll, per slot of `polled`.
  const polled = createLruTable(options.calls.maxTracked)
  const polls: ResultRef[] = []
  const recent = createRecentResults(RECENT_RESULTS, RECENT_RESULT_CHARS)
  const lapCall = { tool: '', key: 0, version: 0 }

  function progress(change?: number): void {
    epoch++
    lastChange = change
  }

  /** Move the epoch on when this call is progress. */
  function judge(call: CallObservation): void {
    if (call.refused || call.failed) return
    if (call.kind === 'mutating' && call.key !== lastChange) {
      progress(call.key)
    } else if (call.kind === 'poller') {
      const slot = polled.use(call.key)
      if (!polled.added && !sameResult(polls[slot]!, call.result)) progress()
      polls[slot] = call.result
    }
  }

  return {
    observeCall(call) {
      if (!call.refused) recent.remember(call.result)
      judge(call)
      // Filled in place: a copy per call would only feed the garbage collector on the hottest path.
      call.epoch = epoch
      const repeated = calls.observe(call)
      const failing = errors.observe(call)
      // Progress-aware, a lap repeats only when the results repeat too: a cycle whose output moves is work. One
      // reused observation: the detector reads it before returning.
      lapCall.tool = call.tool
      lapCall.key = call.key
      lapCall.version = options.sequences.progressAware ? calls.version(call.key) : 0
      const lap = sequences.observe(lapCall)
      if (repeated === undefined && failing === undefined && lap === undefined) return undefined
      return [repeated, failing, lap].filter(found => found !== undefined)
    },
    observeText: observation => text.observe(observation),
    callCount: key => calls.count(key, epoch),
    size: () => ({
      ...calls.size(), ...sequences.size(), ...errors.size(), ...text.size(), polls: polled.size,
      recentResults: recent.size().results, recentChars: recent.size().chars,
    }),
    reset() {
      calls.reset()
      sequences.reset()
      errors.reset()
      text.reset()
      epoch = 0
      lastChange = undefined
      polled.clear()
      polls.length = 0
      recent.clear()
    },
  }
}
