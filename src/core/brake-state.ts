/**
 * Everything dsh-brake remembers about one agent: its progress, the history of its calls, one instance of each
 * detector, and its voice. Each call is judged in one pass: progress and history make its step, every call detector
 * reads the same step and answers by return, and the voice makes of their findings at most one notice about the loop
 * they are about, when that loop is due one (voice.ts).
 * @module dsh-brake/core/brake-state
 */
import { createDuplicateTextDetector, NO_TEXT_SIZE, type DuplicateTextOptions, type TextObservation } from './detectors/duplicate-text.js'
import { createEditRevertDetector, type EditRevertOptions } from './detectors/edit-revert.js'
import { createSameErrorDetector, type SameErrorOptions } from './detectors/same-error.js'
import { createIdenticalCallsDetector, type IdenticalCallsOptions } from './detectors/identical-calls.js'
import { createNearDuplicateDetector, type NearDuplicateOptions } from './detectors/near-duplicate.js'
import { createRereadingDetector, type RereadingOptions } from './detectors/rereading.js'
import { createSameResponseDetector, type ResponseObservation } from './detectors/same-response.js'
import { createSameGroundDetector, type SameGroundOptions } from './detectors/same-ground.js'
import { createSameFailureDetector, type SameFailureOptions } from './detectors/same-failure.js'
import { createCycleDetector, type CycleOptions } from './detectors/cycle.js'
import { createProgress } from './progress.js'
import { createCallHistory } from './call-history.js'
import { createRecentResults } from './evidence/results.js'
import type { CallObservation, CallStep, DuplicateTextFinding, Evidence } from './types.js'
import { createVoice, type Told, type Voice, type VoiceOptions } from './voice.js'
import type { Detector, Schedule } from './detectors/detector.js'

/** Options of all detectors, and the bound of the call history. */
export interface BrakeOptions {
  /** Distinct call identities remembered: the call history, the identical-call chains kept by its numbers, the voice. */
  readonly trackedCalls: number
  readonly voice: Omit<VoiceOptions, 'maxCalls'>
  readonly calls: IdenticalCallsOptions
  readonly sequences: CycleOptions
  readonly revisits: SameGroundOptions
  readonly errors: SameErrorOptions
  readonly nearDuplicates: NearDuplicateOptions
  readonly rereading: RereadingOptions
  readonly text: DuplicateTextOptions
  /** When notices fall on responses that repeat across steps: `first` is the responses in a row that make a loop. */
  readonly responses: Schedule
  /** Edits that undo each other, and the same failure after every fix: judged across progress. */
  readonly editReverts: EditRevertOptions
  readonly sameFailures: SameFailureOptions
}

/** One agent's detectors. */
export interface BrakeState {
  /**
   * Observe one executed or refused call; returns what to tell the model about the loop it is part of, when that is
   * due (usually nothing). A refused call's `result` is expected to be `REFUSED`: the refusal told the model of its
   * repeats already, so only other evidence is told.
   */
  observeCall(call: CallObservation): Told | undefined
  /**
   * Observe one of the agent's responses, once it has streamed: what to tell the model about the loop it is part of,
   * when that is due. A response that asked for no tool call is one action of the agent, as a call is.
   */
  observeResponse(response: Omit<ResponseObservation, 'epoch'>): Told | undefined
  /** Another plugin told the model about the agent's latest call of `tool` (as repeat-tool-reminder names it). */
  heardAbout(tool: string): void
  /** Observe the messages claimed for one step. */
  observeText(observation: TextObservation): DuplicateTextFinding | undefined
  /** The length of the call identity `key`'s current chain (0 when progress broke it). */
  callCount(key: number): number
  /** How many calls of that chain were refused before they ran. */
  refusedCount(key: number): number
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

/** Calls remembered for another plugin's notice about one of them: more than a step usually makes. */
export const LATEST_CALLS = 16

/**
 * The latest calls in a ring: the tool, the call's number and its key. A class, so that its methods are made once rather
 * than as closures for every agent (see lru-table.ts).
 */
class LatestCalls {
  /** Calls held now. */
  size = 0
  private readonly bound: number
  // Plain arrays, filled as calls come: typed ones would be allocated outside the heap for every agent made.
  private readonly tools: string[] = []
  private readonly numbers: number[] = []
  private readonly keys: number[] = []
  private next = 0

  constructor(bound: number) {
    this.bound = bound
  }

  note(tool: string, at: number, key: number): void {
    const slot = this.next++ % this.bound
    this.tools[slot] = tool
    this.numbers[slot] = at
    this.keys[slot] = key
    this.size = Math.min(this.next, this.bound)
  }

  find(tool: string): { at: number; key: number } | undefined {
    for (let back = 1; back <= Math.min(this.next, this.bound); back++) {
      const slot = (this.next - back) % this.bound
      if (this.tools[slot] === tool) return { at: this.numbers[slot]!, key: this.keys[slot]! }
    }
    return undefined
  }

  clear(): void {
    this.tools.length = 0
    this.next = 0
    this.size = 0
  }
}

/**
 * What to do when a call detector throws: it is then switched off for this agent (until the state is reset), and the
 * call goes on through the other detectors. Without a handler the error goes to the caller, as from any other part.
 */
export type DetectorFault = (detector: CallDetectorName, error: unknown) => void

/** The call detectors, in the order their evidence is weighed; a fault is reported under these names. */
export const CALL_DETECTORS = Object.freeze([
  'identical-calls', 'error-repeats', 'sequences', 'revisits', 'near-duplicates', 'rereading', 'edit-revert', 'same-failure',
] as const)
export type CallDetectorName = (typeof CALL_DETECTORS)[number]

/** Create the state of one agent; `onFault` contains a call detector that throws (see {@link DetectorFault}). */
export function createBrakeState(options: BrakeOptions, onFault?: DetectorFault): BrakeState {
  const calls = createIdenticalCallsDetector(options.calls)
  const sequences = createCycleDetector(options.sequences)
  const revisits = createSameGroundDetector(options.revisits)
  const errors = createSameErrorDetector(options.errors)
  const nearDuplicates = createNearDuplicateDetector(options.nearDuplicates)
  const rereading = createRereadingDetector(options.rereading)
  const responses = createSameResponseDetector(options.responses)
  const editReverts = createEditRevertDetector(options.editReverts)
  const sameFailures = createSameFailureDetector(options.sameFailures)
  const progress = createProgress(options.trackedCalls)
  const history = createCallHistory(options.trackedCalls)
  const recent = createRecentResults(RECENT_RESULTS, RECENT_RESULT_CHARS)
  // Made at the first finding or the first notice heard: most agents never have either.
  let voice: Voice | undefined
  // Made at the first text claimed: an agent that no other plugin gives context to never needs it.
  let text: Detector<TextObservation, DuplicateTextFinding> | undefined
  const voiceNow = (): Voice => voice ??= createVoice({ ...options.voice, maxCalls: options.trackedCalls })
  // The latest calls, by tool, number and key, for a notice another plugin gave about one of them at the next step: a
  // ring, as a step seldom holds more calls than this.
  const latest = new LatestCalls(LATEST_CALLS)
  // Calls observed since the last reset: the voice counts repeats in them.
  let observed = 0
  // The first call of the unbroken run of revisits the latest call belongs to (itself, for a call that is none).
  let runStart = 0
  let revisiting = false
  // In the order of CALL_DETECTORS.
  const callDetectors: readonly Detector<CallStep, Evidence>[] = [
    calls, errors, sequences, revisits, nearDuplicates, rereading, editReverts, sameFailures,
  ]
  // Call detectors switched off after a fault, a bit each.
  let faulted = 0

  /** What call detector `index` finds in `step`; nothing once it has thrown, when a fault handler contains it. */
  function detect(index: number, step: CallStep): Evidence | undefined {
    if ((faulted & (1 << index)) !== 0) return undefined
    if (onFault === undefined) return callDetectors[index]!.observe(step)
    try {
      return callDetectors[index]!.observe(step)
    } catch (error) {
      faulted |= 1 << index
      onFault(CALL_DETECTORS[index]!, error)
      return undefined
    }
  }

  function forgetCalls(): void {
    calls.reset()
    sequences.reset()
    revisits.reset()
    errors.reset()
    nearDuplicates.reset()
    rereading.reset()
    progress.reset()
    history.clear()
    recent.clear()
    voice?.reset()
    responses.reset()
    editReverts.reset()
    sameFailures.reset()
    latest.clear()
    revisiting = false
  }

  return {
    observeCall(call) {
      const at = ++observed
      if (!call.refused) recent.remember(call.result)
      latest.note(call.tool, at, call.key)
      const step = history.step(call, progress.observe(call))
      if (!step.revisit || !revisiting) runStart = at
      revisiting = step.revisit
      const repeated = detect(0, step)
      const failing = detect(1, step)
      const lap = detect(2, step)
      const again = detect(3, step)
      const noNews = detect(4, step)
      const reread = detect(5, step)
      // Progress that was not real: these two look across the epochs the others start over at.
      const undone = detect(6, step)
      const unchanged = detect(7, step)
      // Almost every call finds nothing: no array for those.
      if (repeated === undefined && failing === undefined && lap === undefined && again === undefined
        && noNews === undefined && reread === undefined && undone === undefined && unchanged === undefined) return undefined
      // A refused call's repeats were told by its refusal.
      const evidence: Evidence[] = [call.refused ? undefined : repeated, failing, lap, again, noNews, reread, undone, unchanged]
        .filter(found => found !== undefined)
      return voiceNow().speak({ at, key: call.key, epoch: step.epoch, runStart, evidence })
    },
    observeResponse(response) {
      const at = response.calls ? observed : ++observed
      const found = responses.observe({ ...response, epoch: progress.epoch })
      if (found === undefined) return undefined
      return voiceNow().speak({ at, key: found.calls[0]!, epoch: progress.epoch, runStart: revisiting ? runStart : at, evidence: [found] })
    },
    heardAbout(tool) {
      const call = latest.find(tool)
      if (call !== undefined) voiceNow().heard({ ...call, epoch: progress.epoch })
    },
    observeText: observation => (text ??= createDuplicateTextDetector(options.text)).observe(observation),
    callCount: key => calls.count(history.find(key), progress.epoch),
    refusedCount: key => calls.refusedCount(history.find(key), progress.epoch),
    size: () => ({
      ...calls.size(), ...sequences.size(), ...revisits.size(), ...errors.size(), ...(text?.size() ?? NO_TEXT_SIZE), polls: progress.size,
      ...nearDuplicates.size(), ...rereading.size(),
      history: history.size, recentResults: recent.size().results, recentChars: recent.size().chars, voice: voice?.size ?? 0,
      ...responses.size(),
      ...editReverts.size(), ...sameFailures.size(),
      latestCalls: latest.size,
    }),
    reset() {
      forgetCalls()
      text?.reset()
      observed = 0
      faulted = 0
    },
    forgetCalls,
  }
}
