/**
 * Everything dsh-brake remembers about one agent: its progress, the history of its calls, one instance of each
 * detector, and its voice. Each call is judged in one pass: progress and history make its step, every call detector
 * reads the same step and answers by return, and the voice makes of their findings at most one notice about the loop
 * they are about, when that loop is due one (voice.ts).
 * @module dsh-brake/core/brake-state
 */
import { createDuplicateTextDetector, NO_TEXT_SIZE, type DuplicateTextOptions, type TextObservation } from './detectors/duplicate-text.js'
import { CALL_DETECTORS, createCallDetectors, type CallDetector, type CallDetectorEntry, type CallDetectorOptions, type CallKind } from './detectors/call-detectors.js'
import type { IdenticalCallsDetector } from './detectors/identical-calls.js'
import { createSameResponseDetector, type ResponseObservation } from './detectors/same-response.js'
import { createProgress, type Progress } from './progress.js'
import { createCallHistory, type CallHistory } from './call-history.js'
import { createRecentResults, type RecentResults } from './evidence/results.js'
import type { CallObservation, CallStep } from './types.js'
import { KINDS, type DuplicateTextFinding, type Evidence, type SameResponseFinding } from './kinds.js'
import { createVoice, type Told, type Voice, type VoiceOptions } from './voice.js'
import type { Detector, Schedule } from './detectors/detector.js'

/** Options of all detectors, each by the kind it finds, and the bound of the call history. */
export interface BrakeOptions extends CallDetectorOptions {
  /** Distinct call identities remembered: the call history, the identical-call chains kept by its numbers, the voice. */
  readonly trackedCalls: number
  readonly voice: Omit<VoiceOptions, 'maxCalls'>
  readonly 'duplicate-text': DuplicateTextOptions
  /** When notices fall on responses that repeat across steps: `first` is the responses in a row that make a loop. */
  readonly 'same-response': Schedule
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
 * call goes on through the other detectors. `detector` is the name the list logs it under. Without a handler the error
 * goes to the caller, as from any other part.
 */
export type DetectorFault = (detector: string, error: unknown) => void

/**
 * Create the state of one agent; `onFault` contains a call detector that throws (see {@link DetectorFault}). `entries`
 * are the call detectors it runs: the list, unless a measurement leaves one out.
 */
export function createBrakeState(
  options: BrakeOptions, onFault?: DetectorFault, entries: readonly CallDetectorEntry<CallKind>[] = CALL_DETECTORS,
): BrakeState {
  return new AgentState(options, onFault, entries)
}

/** One agent's state. A class, so that its methods are made once rather than as closures for every agent. */
class AgentState implements BrakeState {
  private readonly options: BrakeOptions
  private readonly onFault: DetectorFault | undefined
  private readonly entries: readonly CallDetectorEntry<CallKind>[]
  /** One detector of each entry, in the list's order; the first is the identical-calls detector. */
  private readonly detectors: readonly CallDetector[]
  private readonly identical: IdenticalCallsDetector
  private readonly responses: Detector<ResponseObservation, Evidence<SameResponseFinding>>
  private readonly progress: Progress
  private readonly history: CallHistory
  private readonly recent: RecentResults
  // Made at the first finding or the first notice heard: most agents never have either.
  private voice: Voice | undefined
  // Made at the first text claimed: an agent that no other plugin gives context to never needs it.
  private text: Detector<TextObservation, DuplicateTextFinding> | undefined
  // The latest calls, by tool, number and key, for a notice another plugin gave about one of them at the next step: a
  // ring, as a step seldom holds more calls than this.
  private readonly latest = new LatestCalls(LATEST_CALLS)
  // Calls observed since the last reset: the voice counts repeats in them.
  private observed = 0
  // The first call of the unbroken run of revisits the latest call belongs to (itself, for a call that is none).
  private runStart = 0
  private revisiting = false
  // Call detectors switched off after a fault, a bit each.
  private faulted = 0

  constructor(options: BrakeOptions, onFault: DetectorFault | undefined, entries: readonly CallDetectorEntry<CallKind>[]) {
    this.options = options
    this.onFault = onFault
    this.entries = entries
    // The list's first entry makes the identical-calls detector, with its own type: a list that begins otherwise (one
    // that leaves it out) would lose its first detector unseen.
    if (entries[0]?.kind !== 'identical-calls') {
      throw new Error(`dsh-brake: the call detectors must begin with identical-calls, got ${entries[0]?.kind ?? 'none'}`)
    }
    this.identical = CALL_DETECTORS[0].create(options['identical-calls'])
    this.detectors = [this.identical, ...createCallDetectors(options, entries.slice(1))]
    this.responses = createSameResponseDetector(options['same-response'])
    this.progress = createProgress(options.trackedCalls)
    this.history = createCallHistory(options.trackedCalls)
    this.recent = createRecentResults(RECENT_RESULTS, RECENT_RESULT_CHARS)
  }

  observeCall(call: CallObservation): Told | undefined {
    const at = ++this.observed
    if (!call.refused) this.recent.remember(call.result)
    this.latest.note(call.tool, at, call.key)
    const step = this.history.step(call, this.progress.observe(call))
    if (!step.revisit || !this.revisiting) this.runStart = at
    this.revisiting = step.revisit
    // Almost every call finds nothing: no array for those.
    let evidence: Evidence[] | undefined
    for (let index = 0; index < this.detectors.length; index++) {
      const found = this.detect(index, step)
      if (found === undefined) continue
      // A refused call's repeats were told by its refusal: only its other evidence is told.
      if (call.refused && KINDS[this.entries[index]!.kind].refuses) {
        evidence ??= []
        continue
      }
      (evidence ??= []).push(found)
    }
    if (evidence === undefined) return undefined
    return this.voiceNow().speak({ at, key: call.key, epoch: step.epoch, runStart: this.runStart, evidence })
  }

  observeResponse(response: Omit<ResponseObservation, 'epoch'>): Told | undefined {
    const at = response.calls ? this.observed : ++this.observed
    const epoch = this.progress.epoch
    const found = this.responses.observe({ ...response, epoch })
    if (found === undefined) return undefined
    return this.voiceNow().speak({ at, key: found.calls[0]!, epoch, runStart: this.revisiting ? this.runStart : at, evidence: [found] })
  }

  heardAbout(tool: string): void {
    const call = this.latest.find(tool)
    if (call !== undefined) this.voiceNow().heard({ ...call, epoch: this.progress.epoch })
  }

  observeText(observation: TextObservation): DuplicateTextFinding | undefined {
    return (this.text ??= createDuplicateTextDetector(this.options['duplicate-text'])).observe(observation)
  }

  callCount(key: number): number {
    return this.identical.count(this.history.find(key), this.progress.epoch)
  }

  refusedCount(key: number): number {
    return this.identical.refusedCount(this.history.find(key), this.progress.epoch)
  }

  size(): Readonly<Record<string, number>> {
    const sizes: Record<string, number> = {}
    for (const detector of this.detectors) Object.assign(sizes, detector.size())
    return {
      ...sizes, ...(this.text?.size() ?? NO_TEXT_SIZE), ...this.responses.size(), polls: this.progress.size,
      history: this.history.size, recentResults: this.recent.size().results, recentChars: this.recent.size().chars,
      voice: this.voice?.size ?? 0, latestCalls: this.latest.size,
    }
  }

  reset(): void {
    this.forgetCalls()
    this.text?.reset()
    this.observed = 0
    this.faulted = 0
  }

  forgetCalls(): void {
    for (const detector of this.detectors) detector.reset()
    this.progress.reset()
    this.history.clear()
    this.recent.clear()
    this.voice?.reset()
    this.responses.reset()
    this.latest.clear()
    this.revisiting = false
  }

  /** What call detector `index` finds in `step`; nothing once it has thrown, when a fault handler contains it. */
  private detect(index: number, step: CallStep): Evidence | undefined {
    if ((this.faulted & (1 << index)) !== 0) return undefined
    if (this.onFault === undefined) return this.detectors[index]!.observe(step)
    try {
      return this.detectors[index]!.observe(step)
    } catch (error) {
      this.faulted |= 1 << index
      this.onFault(this.entries[index]!.loggedAs, error)
      return undefined
    }
  }

  private voiceNow(): Voice {
    return this.voice ??= createVoice({ ...this.options.voice, maxCalls: this.options.trackedCalls })
  }
}
