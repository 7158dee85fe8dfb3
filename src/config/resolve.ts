/**
 * From the config to what the detectors are given: the config checked against every rule once more (a host that calls
 * the bare schema, or a test, reaches `apply` without the checker), its keys turned into each detector's options, and
 * the bounds that are not configuration.
 * @module dsh-brake/config/resolve
 */
import type { BrakeOptions } from '../core/brake-state.js'
import type { RunawayOptions } from '../core/stream/runaway-rules.js'
import { configProblems, describeProblems } from './check.js'
import type { Config } from './keys.js'

/** Bounds that are not configuration: they keep per-agent memory flat however long a session runs. */
export const LIMITS = Object.freeze({
  /** Distinct call identities remembered per agent. */
  trackedCalls: 1024,
  /** Distinct text blocks remembered per agent. */
  trackedBlocks: 1024,
  /** Tools whose failure chains are remembered per agent. */
  trackedTools: 256,
  /** Checks (tests, builds, scripts run) whose recent failures are remembered per agent, for edits judged across progress. */
  trackedChecks: 64,
  /** Runs of a check failing at one place, the first included, that show edits undoing each other. */
  failureReturns: 3,
  /** Claimed message ids remembered per agent, to ignore replays. */
  messageIds: 1024,
  /** Characters of a block's beginning kept for a notice's preview. */
  blockHeadChars: 200,
  /** The longest unit a streaming response is watched repeating (a passage of a few paragraphs). */
  streamUnitChars: 2000,
  /** Characters between two looks at a streaming response's tail (the most a cut can come late). */
  streamLookEvery: 256,
  /** The fewest copies, and characters, a streaming response's repetition is cut on, whatever the thresholds. */
  streamMinCopies: 3,
  streamMinChars: 256,
  /** Glitches (a character dropped or changed) a streaming response's repetition of a short unit is followed through. */
  streamEdits: 8,
  /** Characters of the request's own text (tool output, the person's words) a repetition is looked up in as a quote. */
  streamQuoteChars: 1_000_000,
  /** Calls of a stretch that brought no news (a near-duplicate loop), and how many of them asked again. */
  nearDuplicateCount: 5,
  nearDuplicateReasked: 3,
  /** Windows of a file, of its latest `rereadWindows`, that went over old ground (paging over old ground). */
  rereadCount: 4,
  rereadWindows: 6,
  /** Runs from more than one command that end the same way, before the same-failure detector's first notice. */
  sameOutcomeAcross: 4,
})

/** What `apply` works with: the validated config plus the detector options derived from it. */
export interface ResolvedConfig {
  readonly config: Readonly<Config>
  readonly detectors: BrakeOptions
  /** How a streaming response is watched for repeating itself; undefined when that is off. */
  readonly stream: RunawayOptions | undefined
}

/**
 * Check every rule and derive the detector options. Throws (and so stops the plugin from loading) with one message
 * naming every problem: the key, the rule and the value received.
 */
export function resolveOptions(config: Config): ResolvedConfig {
  const problems = configProblems(config)
  if (problems.length > 0) throw new TypeError(describeProblems(problems))
  return {
    config,
    detectors: {
      trackedCalls: LIMITS.trackedCalls,
      voice: { every: config.callReWarnEvery },
      'identical-calls': {
        schedule: { first: config.callWarnCount, every: config.callReWarnEvery },
        pollSchedule: { first: config.pollWarnCount, every: config.callReWarnEvery },
        progressAware: config.progressAware,
      },
      cycle: {
        maxLength: config.sequenceLength,
        schedule: { first: config.sequenceCount, every: config.callReWarnEvery },
        progressAware: config.progressAware,
      },
      'same-ground': {
        schedule: { first: config.revisitCount, every: config.callReWarnEvery },
        ownedPeriod: config.sequenceLength,
      },
      'same-error': {
        schedule: { first: config.errorRepeatCount, every: config.callReWarnEvery },
        inputSchedule: { first: config.inputErrorRepeatCount, every: config.callReWarnEvery },
        maxTracked: LIMITS.trackedTools,
      },
      'near-duplicate': {
        schedule: { first: LIMITS.nearDuplicateCount, every: config.callReWarnEvery },
        reasked: LIMITS.nearDuplicateReasked,
      },
      rereading: {
        schedule: { first: LIMITS.rereadCount, every: config.callReWarnEvery },
        among: LIMITS.rereadWindows,
      },
      // Responses that repeat are repeated text too: the same count makes them a loop.
      'same-response': { first: config.duplicateTextThreshold, every: config.callReWarnEvery },
      'edit-revert': { schedule: { first: LIMITS.failureReturns, every: config.callReWarnEvery }, maxTracked: LIMITS.trackedChecks },
      'same-failure': {
        schedule: { first: config.sameFailureCount, every: config.callReWarnEvery }, maxTracked: LIMITS.trackedChecks,
        acrossCommands: LIMITS.sameOutcomeAcross,
      },
      'duplicate-text': {
        threshold: config.duplicateTextThreshold,
        windowMs: config.duplicateTextWindowMs,
        cooldownMs: config.duplicateTextCooldownMs,
        minChars: config.minimumDuplicateChars,
        maxTracked: LIMITS.trackedBlocks,
        maxMessageIds: LIMITS.messageIds,
        headChars: LIMITS.blockHeadChars,
      },
    },
    stream: config.streamCut
      ? {
        chars: config.streamCutChars,
        copies: config.streamCutCopies,
        minCopies: LIMITS.streamMinCopies,
        minChars: LIMITS.streamMinChars,
        maxUnit: LIMITS.streamUnitChars,
        every: LIMITS.streamLookEvery,
        edits: LIMITS.streamEdits,
      }
      : undefined,
  }
}
