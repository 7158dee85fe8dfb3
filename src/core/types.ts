/**
 * The plain data that flows into the detectors and out of them.
 *
 * Nothing here knows DSH: the adapter (`src/dsh/`) turns tool executions and claimed messages into observations, and
 * findings into notices or denials. Time is always passed in, never read.
 * @module dsh-brake/core/types
 */
import type { Failure } from './evidence/failures.js'
import type { FileEdit } from './evidence/file-edits.js'
import type { ResultRef } from './evidence/results.js'

/**
 * How a tool's calls are judged (README, "Tool policies"). `bookkeeping` tools never reach the detectors: like
 * excluded tools, they are transparent.
 */
export type ToolClass = 'default' | 'read' | 'poller' | 'mutating' | 'bookkeeping'

/** A class other than `bookkeeping`: the classes of the calls the detectors see. */
export type WatchedClass = Exclude<ToolClass, 'bookkeeping'>

/** One executed (or refused) tool call of one agent, in call order. */
export interface CallObservation {
  /** Tool name as the model requested it. */
  readonly tool: string
  /**
   * The arguments the identity was computed from (identity fields only), for a notice's preview. Kept only by the
   * same-ground detector, for the calls of a run still going (at most 64), and the near-duplicate detector, for the latest
   * four calls of a stretch still going; both let them go when the run or stretch ends.
   */
  readonly args: unknown
  /** Fingerprint of tool name plus canonical arguments: the call identity. */
  readonly key: number
  /** The tool's class. */
  readonly kind: WatchedClass
  /** The result the call returned (compared raw, and normalized when needed). */
  readonly result: ResultRef
  /** Whether the call failed: an error result, or a shell command that reported a failure. */
  readonly failed: boolean
  /** Whether this plugin's guard refused the call (its result is the refusal, not the tool's). */
  readonly refused: boolean
  /** For a failed call with an error result: the first line of its error as the model saw it; otherwise undefined. */
  readonly errorLine: string | undefined
  /** Whether the error result rejected the model's input (as opposed to the environment failing). */
  readonly inputError: boolean
  /** Whether a change stands whatever the failure says (a shell change before the command's last part). */
  readonly changeStands: boolean
  /**
   * For a check (class `default`), what its output tells of a failure (a failed call, or output ending in an
   * exception); undefined otherwise.
   */
  readonly failure: Failure | undefined
  /** For a `mutating` call, the edits it shows (`file-edits.ts`); empty for any other call. */
  readonly edits: readonly FileEdit[]
  /** What the call looked for, when it is a lookup (a search, or the opening of a file); absent otherwise. */
  readonly lookup?: Lookup | undefined
  /** The lines of one file the call showed, when it showed a window of them; absent otherwise. */
  readonly window?: FileWindow | undefined
  /** Whether the result says there was nothing to find: a search that matched nothing, a path that does not exist. */
  readonly nothing?: boolean
}

/** What a lookup asked: the patterns or names it looked for, and where. */
export interface Lookup {
  /** The patterns or names looked for (a search's patterns, a file's name); bounded by the adapter. */
  readonly terms: readonly string[]
  /** Where it looked: paths (empty: everywhere the tool looks by default). */
  readonly scope: readonly string[]
}

/** A window of one file: the lines from `first` to `last`, counted from 1. */
export interface FileWindow {
  readonly file: string
  readonly first: number
  readonly last: number
}

/** A call as the detectors see it: what the adapter observed, and what the agent's state knows about it. */
export interface CallStep {
  /** The call as observed. */
  readonly call: CallObservation
  /**
   * The progress epoch the call happened in: it moves on whenever the agent makes progress (a new successful change, a
   * poller that reported news).
   */
  readonly epoch: number
  /**
   * The version of this call identity's result: it changes whenever the result differs from the identity's previous
   * one (compared raw, then normalized), and stays the same on a refused attempt.
   */
  readonly version: number
  /** Whether the identity was called before in the same epoch and its result has not moved since: going over it again. */
  readonly revisit: boolean
  /**
   * The identity's number in the agent's call history, below the history's bound: per-identity state elsewhere is
   * kept by this number, so one table bounds it all.
   */
  readonly slot: number
  /** Whether this call gave the identity its number (first seen, or taking a forgotten identity's place). */
  readonly fresh: boolean
}

/** The same call identity observed `count` times in one chain (since the last progress, when progress-aware). */
export interface IdenticalCallsFinding {
  readonly kind: 'identical-calls'
  readonly tool: string
  readonly toolClass: CallObservation['kind']
  /** Canonical arguments of the call that tripped the detector (unbounded; the message layer trims it). */
  readonly args: string
  /** How many calls the chain holds, the current call included. */
  readonly count: number
  /** What the results showed: all the same, all the same failure, or changing (plain counting only). */
  readonly evidence: 'same-result' | 'same-failure' | 'changed'
}

/** The same tool failing with the same error, whatever the arguments. */
export interface SameErrorFinding {
  readonly kind: 'same-error'
  readonly tool: string
  /** Failures since the tool last succeeded (or since the last progress), the current one included. */
  readonly count: number
  /** How many different argument sets failed this way (at least 2). */
  readonly variants: number
  /** The first line of the latest error, as the model saw it (unbounded; the message layer trims it). */
  readonly error: string
  /** `input`: the tool rejected what was sent; `environment`: something the tool depends on is wrong. */
  readonly cause: 'input' | 'environment'
}

/** A cycle of pairwise-distinct call identities repeated back to back. */
export interface CycleFinding {
  readonly kind: 'cycle'
  /** Tool names of one lap, in call order, starting with the oldest call of the last lap. */
  readonly tools: readonly string[]
  /** Complete laps seen back to back, the current one included. */
  readonly laps: number
  /** Whether the results were part of what repeated (progress-aware counting). */
  readonly sameResults: boolean
}

/** A run of consecutive calls that each repeat an earlier call, unchanged, with no progress since. */
export interface SameGroundFinding {
  readonly kind: 'same-ground'
  /** Calls in the run, the current one included. */
  readonly count: number
  /** The run's most repeated calls, most first: tool, canonical arguments (unbounded), and repeats within the run. */
  readonly calls: readonly { readonly tool: string; readonly args: string; readonly count: number }[]
}

/** What a call that brought no news returned: nothing, another call's output, its own earlier result, lines already shown. */
export type NoNews = 'nothing' | 'same-output' | 'repeat' | 'seen'

/**
 * A stretch of calls that brought no news although their arguments differ: searches that found nothing under one
 * spelling after another, outputs the same as another call's, results already had.
 */
export interface NearDuplicateFinding {
  readonly kind: 'near-duplicate'
  /** Calls in the stretch that brought no news, the current one included. */
  readonly count: number
  /** How many different calls (sets of arguments) they were. */
  readonly variants: number
  /** What most of them returned (`repeat` and `seen` both count as `seen`: results already had). */
  readonly mostly: 'nothing' | 'same-output' | 'seen'
  /** The stretch's latest different calls, latest first: tool, canonical arguments (unbounded), what it returned. */
  readonly calls: readonly { readonly tool: string; readonly args: string; readonly returned: NoNews }[]
}

/** Windows of one file that went over lines already read since the last change: a pass that replays itself. */
export interface RereadingFinding {
  readonly kind: 'rereading'
  readonly file: string
  /** Windows of the file that went over old ground since the last change, the current one included. */
  readonly count: number
  /** The line ranges those windows showed, merged, in file order. */
  readonly ranges: readonly { readonly first: number; readonly last: number }[]
}

/** One text block that crossed the duplicate threshold. */
export interface DuplicateBlock {
  /** Occurrences counted toward this finding (at least the threshold). */
  readonly count: number
  /** Source labels of the messages the block came from, first seen first, at most a handful. */
  readonly sources: readonly string[]
  /** The beginning of the block (newlines normalized); the message layer trims it further. */
  readonly head: string
  /** Length of the whole normalized block, in UTF-16 code units. */
  readonly length: number
}

/** Text blocks repeated across (or inside) the messages claimed for one step. */
export interface DuplicateTextFinding {
  readonly kind: 'duplicate-text'
  /** The blocks that tripped in this observation, in the order they tripped. Never empty. */
  readonly blocks: readonly DuplicateBlock[]
  /** Occurrences within the window that trip a block. */
  readonly threshold: number
  /** The window the counts were taken in, in milliseconds. */
  readonly windowMs: number
}

/** Responses in a row that said the same thing, or opened with the same passage, with no progress between. */
export interface SameResponseFinding {
  readonly kind: 'same-response'
  /** Responses in the run, the latest included. */
  readonly count: number
  /** Whether the responses were the same answer whole (text only, no tool call); else they opened alike. */
  readonly whole: boolean
  /** The beginning of what they said (bounded; the message layer trims it further). */
  readonly head: string
}

/** A response that fell into repeating itself while it streamed, and was cut there. */
export interface RunawayFinding {
  readonly kind: 'runaway'
  /** Where it repeated: the visible answer, or the reasoning. */
  readonly part: 'text' | 'reasoning'
  /** The unit that repeated (bounded; the message layer trims it further). */
  readonly unit: string
  /** Back-to-back copies of the unit when it was cut. */
  readonly copies: number
  /** Responses cut in the agent's current turn, this one included. */
  readonly cuts: number
}

/** A check that failed the same way run after run, each time after edits that left what the failure points to alone. */
export interface SameFailureFinding {
  readonly kind: 'same-failure'
  /** The check: its tool and canonical arguments (unbounded; the message layer trims them). */
  readonly tool: string
  readonly args: string
  /** Runs in a row that failed this way, each after an edit, the current one included. */
  readonly count: number
  /** The failure's line: the exception, or the output's last line (bounded; the message layer trims it further). */
  readonly failure: string
  /** The file the failure is raised in, when the output names one; empty otherwise. */
  readonly origin: string
  /** Files edited between the runs, latest first, at most a few. */
  readonly edited: readonly string[]
}

/** Edits that undo each other, as the checks between them show. */
export interface EditRevertFinding {
  readonly kind: 'edit-revert'
  /**
   * `redo`: an edit the agent had undone was made again, with nothing tried in between, and the check fails as it did
   * then; `back`: a failure that edits had made go away came back, again.
   */
  readonly evidence: 'redo' | 'back'
  /** The check that shows it: its tool and canonical arguments (unbounded; the message layer trims them). */
  readonly tool: string
  readonly args: string
  /** The file the edit was made again to (`redo`); empty for `back`. */
  readonly file: string
  /** `redo`: 2 (the file's stays in the state); `back`: runs of the check that failed this way, the first included. */
  readonly count: number
  /** The failure's line (bounded; the message layer trims it further). */
  readonly failure: string
}

/** What the brake can report of a loop in what the agent does: its calls, its responses. */
export type LoopFinding =
  | IdenticalCallsFinding | SameErrorFinding | CycleFinding | SameGroundFinding | SameResponseFinding | RunawayFinding
  | EditRevertFinding | SameFailureFinding
  | NearDuplicateFinding | RereadingFinding

/**
 * What a call detector saw at one call: its finding, and the call identities (keys) the finding is about, so that
 * findings of several detectors about the same calls can be told as one loop (voice.ts).
 */
export interface Evidence<F extends LoopFinding = LoopFinding> {
  readonly finding: F
  /** The keys of the calls the loop is made of: the repeated call, a cycle's lap, a run's calls, the failing calls. */
  readonly calls: readonly number[]
}

/** Anything a detector can report. */
export type Finding = LoopFinding | DuplicateTextFinding

/**
 * The one vocabulary for kinds of loop (glossary: docs/design.md, "Loop kinds"): what a finding's `kind` says, what
 * `analyze` reports a loop as, and what the events carry. README and notices use the same words.
 */
export type LoopKind = Finding['kind']

/** Every loop kind, in the order reports list them. */
export const LOOP_KINDS: readonly LoopKind[] = [
  'identical-calls', 'cycle', 'same-ground', 'same-error', 'duplicate-text', 'same-response', 'runaway',
  'edit-revert', 'same-failure',
  'near-duplicate', 'rereading',
]

/**
 * `T` with its read-only fields writable, for the factory that keeps them up to date. Per-agent objects give such
 * figures as fields rather than getters: V8 builds an object literal with accessors on a slow path (about a microsecond
 * each, and each such object gets a shape of its own, which slows every read of it), and an agent makes many.
 */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] }
