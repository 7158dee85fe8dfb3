/**
 * The loop kinds: what a finding of each kind says, and the one registry of what every part of the brake needs to know
 * about a kind (how it ranks among the evidence at one call, whether its calls repeat exactly, whether it is read from
 * what results said, whether it is judged across progress, whether a refusal or a stop can come of it, and its name in
 * a report). Every table about kinds is derived from {@link KINDS}; a kind left out of it is a type error.
 *
 * Nothing here knows DSH or speaks to the model: the notices' wording is the messages layer's (src/messages/wording.ts),
 * keyed by the same ids. Adding a kind: docs/design.md#adding-a-loop-kind.
 * @module dsh-brake/core/kinds
 */
import type { WatchedClass } from './types.js'

/** The same call identity observed `count` times in one chain (since the last progress, when progress-aware). */
export interface IdenticalCallsFinding {
  readonly kind: 'identical-calls'
  readonly tool: string
  readonly toolClass: WatchedClass
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

/**
 * Runs that ended the same way, each a new attempt (after edits that left what the outcome points to alone, or as
 * another command): the same failure whatever command or wrapper ran it, or one check's unchanged output.
 */
export interface SameFailureFinding {
  readonly kind: 'same-failure'
  /** The latest check: its tool and canonical arguments (unbounded; the message layer trims them). */
  readonly tool: string
  readonly args: string
  /** Runs that ended this way, each a new attempt, the current one included. */
  readonly count: number
  /** `failure`: they failed alike; `output`: one check that did not fail showed the same output after every edit. */
  readonly evidence: 'failure' | 'output'
  /** How many different commands ran them (1: the same check each time). */
  readonly commands: number
  /** The failure's line: the exception, or the output's last line (bounded; the message layer trims it further). */
  readonly failure: string
  /** The file the failure is raised in, when the output names one; empty otherwise. */
  readonly origin: string
  /**
   * The script the check runs, when the failure is raised in another file but passes through it (the script calls the
   * library that raises it); empty otherwise.
   */
  readonly script: string
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

/** What the brake knows of a kind of loop, whatever found it. */
export interface KindFacts {
  /**
   * Its rank among the evidence found at one call, the lowest first: the strongest evidence leads the one notice the
   * call gets (voice.ts), and the rest is named after it.
   */
  readonly strength: number
  /** Whether its loop is made of calls that repeat exactly, which deny mode refuses past its count. */
  readonly repeatsExactly: boolean
  /** Whether it is read from what results said (calls that brought no news) rather than seen repeating exactly. */
  readonly noNews: boolean
  /** Whether it is judged across progress: its calls made changes that did not move anything. */
  readonly acrossProgress: boolean
  /** Whether deny mode refuses its calls: on a refused call, the refusal has told it, and its evidence is left out. */
  readonly refuses: boolean
  /** Whether it can end a turn in stop mode, going on after the brake spoke about it. */
  readonly stops: boolean
  /**
   * How `dsh-brake analyze` names a loop of this kind, in the words its id is made of: `{what}` is what repeats,
   * `{period}` the calls of a lap.
   */
  readonly report: string
}

/**
 * Every kind of loop, in the order reports list them, with its facts. Strength: a cycle or a run names the whole loop;
 * the same error says why; a repeat says least of the exact kinds; calls that brought no news come after them all,
 * being read from what results said; the kinds judged across progress seldom meet the others at one call, and when
 * they do, the loop the others name leads.
 */
export const KINDS: { readonly [K in LoopKind]: KindFacts } = Object.freeze({
  'identical-calls': {
    strength: 4, repeatsExactly: true, noNews: false, acrossProgress: false, refuses: true, stops: true,
    report: 'identical calls ({what})',
  },
  'cycle': {
    strength: 0, repeatsExactly: true, noNews: false, acrossProgress: false, refuses: false, stops: true,
    report: 'cycle of {period} calls ({what})',
  },
  'same-ground': {
    strength: 1, repeatsExactly: true, noNews: false, acrossProgress: false, refuses: false, stops: true,
    report: 'same ground, lap of {period} calls ({what})',
  },
  // One error across arguments: the calls differ, so they are never refused.
  'same-error': {
    strength: 2, repeatsExactly: false, noNews: false, acrossProgress: false, refuses: false, stops: true,
    report: 'same error ({what})',
  },
  // Text a hook writes is told on its own, never weighed against a call's evidence, and never stops a turn.
  'duplicate-text': {
    strength: 10, repeatsExactly: false, noNews: false, acrossProgress: false, refuses: false, stops: false,
    report: 'duplicate text ("{what}")',
  },
  'same-response': {
    strength: 3, repeatsExactly: false, noNews: false, acrossProgress: false, refuses: false, stops: true,
    report: 'same response ("{what}")',
  },
  'runaway': {
    strength: 5, repeatsExactly: false, noNews: false, acrossProgress: false, refuses: false, stops: true,
    report: 'runaway response ("{what}")',
  },
  // Each of their calls made a change: told, never refused, never stopped.
  'edit-revert': {
    strength: 8, repeatsExactly: false, noNews: false, acrossProgress: true, refuses: false, stops: false,
    report: 'edit revert, edits undoing each other ({what})',
  },
  'same-failure': {
    strength: 9, repeatsExactly: false, noNews: false, acrossProgress: true, refuses: false, stops: false,
    report: 'same failure after every fix ({what})',
  },
  // Calls that differ, or windows that shift: told, never refused, and never the first of the two notices a stop needs.
  'near-duplicate': {
    strength: 7, repeatsExactly: false, noNews: true, acrossProgress: false, refuses: false, stops: false,
    report: 'near-duplicate calls ({what})',
  },
  'rereading': {
    strength: 6, repeatsExactly: false, noNews: true, acrossProgress: false, refuses: false, stops: false,
    report: 'rereading, paging over old ground ({what})',
  },
})

/** Every loop kind, in the order reports list them. */
export const LOOP_KINDS: readonly LoopKind[] = Object.freeze(Object.keys(KINDS) as LoopKind[])
