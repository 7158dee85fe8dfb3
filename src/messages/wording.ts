/**
 * Each kind's finding in words: as the notice that leads with it, as its one-line summary, and as a phrase where another
 * notice or a stop names it. {@link WORDINGS} holds them by kind, with the templates each kind's summaries and phrases
 * are made from (which the records read back: dsh/readings.ts). The values the notice and the phrase both fill in
 * (clipped names and arguments, previews, counts) are worked out once, when the wording is made; what only one of them
 * says is worked out there.
 * @module dsh-brake/messages/wording
 */
import type {
  CycleFinding, DuplicateTextFinding, EditRevertFinding, Finding, IdenticalCallsFinding, LoopKind, NearDuplicateFinding,
  RereadingFinding, RunawayFinding, SameErrorFinding, SameFailureFinding, SameGroundFinding, SameResponseFinding,
} from '../core/kinds.js'
import { loopCalls } from '../core/stops.js'
import { duration } from '../words/duration.js'
import { fill } from '../words/template.js'
import { clip, oneLine } from '../words/text.js'
import {
  ARGS_PREVIEW_CHARS, LISTED_ARGS_CHARS, LISTED_BLOCKS, LISTED_RANGES, NAME_CHARS, PATH_CHARS, summary, TEXT_PREVIEW_CHARS,
  UNIT_SUMMARY_CHARS,
} from './limits.js'
import {
  CYCLE_NOTICE, CYCLE_PHRASE, CYCLE_SAMENESS, CYCLE_SUMMARY, DUPLICATE_BLOCK_LINE, DUPLICATE_BLOCK_LINE_SPREAD,
  DUPLICATE_TEXT_NOTICE, DUPLICATE_TEXT_SUMMARY, EDIT_REVERT_BACK_NOTICE, EDIT_REVERT_NOTICE, EDIT_REVERT_PHRASE,
  EDIT_REVERT_SUMMARY, IDENTICAL_CALLS_ADVICE, IDENTICAL_CALLS_EVIDENCE, IDENTICAL_CALLS_NOTICE,
  IDENTICAL_CALLS_PHRASE, IDENTICAL_CALLS_SHORT, IDENTICAL_CALLS_SUMMARY, MORE_BLOCKS_LINE, NEAR_DUPLICATE_ADVICE,
  NEAR_DUPLICATE_ADVICE_AGAIN, NEAR_DUPLICATE_CALL_LINE, NEAR_DUPLICATE_NOTICE, NEAR_DUPLICATE_PHRASE,
  NEAR_DUPLICATE_PHRASE_CALL, NEAR_DUPLICATE_RETURNED, NEAR_DUPLICATE_SUMMARY, REFUSED_CALLS_PHRASE, REREADING_NOTICE,
  REREADING_PHRASE, REREADING_SUMMARY, RUNAWAY_LABEL, RUNAWAY_NOTICE, RUNAWAY_PART, RUNAWAY_PHRASE, RUNAWAY_SUMMARY,
  SAME_ERROR_NOTICE, SAME_ERROR_PHRASE, SAME_ERROR_SUMMARY, SAME_FAILURE_COMMANDS_NOTICE, SAME_FAILURE_COMMANDS_PHRASE,
  SAME_FAILURE_COMMANDS_SUMMARY, SAME_FAILURE_NOTICE, SAME_FAILURE_ORIGIN, SAME_FAILURE_PHRASE, SAME_FAILURE_RAISED,
  SAME_FAILURE_SCRIPT_ORIGIN, SAME_FAILURE_SUMMARY, SAME_GROUND_CALL_LINE, SAME_GROUND_NOTICE, SAME_GROUND_PHRASE,
  SAME_GROUND_PHRASE_CALL, SAME_GROUND_SUMMARY, SAME_INPUT_ERROR_NOTICE, SAME_INPUT_ERROR_SUMMARY, SAME_OUTPUT_NOTICE,
  SAME_OUTPUT_PHRASE, SAME_OUTPUT_SUMMARY, SAME_RESPONSE_NOTICE, SAME_RESPONSE_PHRASE, SAME_RESPONSE_SAMENESS,
  SAME_RESPONSE_SUMMARY,
} from './templates.js'

/** A notice's model-facing text and its one-line summary for the collapsed row. */
export interface NoticeText {
  readonly text: string
  readonly summary: string
}

/** A finding in words. */
export interface Wording {
  /** The notice for the finding alone. */
  notice(): NoticeText
  /** The finding in a phrase: what repeated and how many calls it took; `refused` when its last call was refused. */
  phrase(refused: boolean): string
  /** The loop as another row's summary names it, where its own summary tells of an action; else that summary. */
  label?(): string
}

/** A kind in words: how a finding of it is worded, and the templates of what its records say. */
export interface KindWording<F extends Finding> {
  /** `again`: the brake told this loop before, and it went on (advice that was given once may need to change). */
  readonly words: (found: F, again: boolean) => Wording
  /** The templates its notices' summaries are made from, the specific before the general where two could read alike. */
  readonly summaries: readonly string[]
  /** The templates a stop names it by. */
  readonly phrases: readonly string[]
}

/** Identical calls: the tool, how often, with which arguments, and what the repeats showed. */
function identicalCallsWording(found: IdenticalCallsFinding): Wording {
  const values = {
    tool: clip(found.tool, NAME_CHARS), count: String(found.count), arguments: clip(found.args, ARGS_PREVIEW_CHARS),
    short: IDENTICAL_CALLS_SHORT[found.evidence],
  }
  return {
    notice() {
      // One concrete alternative, fitting the tool's class and the evidence.
      const advice = found.evidence === 'changed' ? IDENTICAL_CALLS_ADVICE.changed
        : found.toolClass === 'poller' ? IDENTICAL_CALLS_ADVICE.poll
          : found.toolClass === 'mutating' ? IDENTICAL_CALLS_ADVICE.change
            : IDENTICAL_CALLS_ADVICE.repeat
      return {
        text: fill(IDENTICAL_CALLS_NOTICE, { ...values, evidence: IDENTICAL_CALLS_EVIDENCE[found.evidence], advice }),
        summary: summary(fill(IDENTICAL_CALLS_SUMMARY, values)),
      }
    },
    phrase: refused => fill(refused ? REFUSED_CALLS_PHRASE : IDENTICAL_CALLS_PHRASE, values),
  }
}

/** A cycle: its calls' tools in order, its length and its laps. */
function cycleWording(found: CycleFinding): Wording {
  const values = {
    length: String(found.tools.length), laps: String(found.laps), cycle: found.tools.map(tool => clip(tool, NAME_CHARS)).join(' → '),
  }
  return {
    notice: () => ({
      text: fill(CYCLE_NOTICE, { ...values, sameness: found.sameResults ? CYCLE_SAMENESS.results : CYCLE_SAMENESS.arguments }),
      summary: summary(fill(CYCLE_SUMMARY, values)),
    }),
    phrase: () => fill(CYCLE_PHRASE, { ...values, calls: String(loopCalls(found)) }),
  }
}

/** Going over the same ground: the run's length and the calls it keeps going back to, a line each or in a list. */
function sameGroundWording(found: SameGroundFinding): Wording {
  const count = String(found.count)
  const calls = found.calls.map(call => ({
    tool: clip(call.tool, NAME_CHARS), arguments: clip(call.args, LISTED_ARGS_CHARS), count: String(call.count),
  }))
  return {
    notice: () => ({
      text: fill(SAME_GROUND_NOTICE, { count, calls: calls.map(call => fill(SAME_GROUND_CALL_LINE, call)).join('\n') }),
      summary: summary(fill(SAME_GROUND_SUMMARY, { count })),
    }),
    phrase: () => fill(SAME_GROUND_PHRASE, { count, often: calls.map(call => fill(SAME_GROUND_PHRASE_CALL, call)).join(', ') }),
  }
}

/** One error, different arguments: the tool, how often, the error, and whether it was about the input. */
function sameErrorWording(found: SameErrorFinding): Wording {
  const values = { tool: clip(found.tool, NAME_CHARS), count: String(found.count), error: clip(found.error, ARGS_PREVIEW_CHARS) }
  const input = found.cause === 'input'
  return {
    notice: () => ({
      text: fill(input ? SAME_INPUT_ERROR_NOTICE : SAME_ERROR_NOTICE, { ...values, variants: String(found.variants) }),
      summary: summary(fill(input ? SAME_INPUT_ERROR_SUMMARY : SAME_ERROR_SUMMARY, values)),
    }),
    phrase: () => fill(SAME_ERROR_PHRASE, values),
  }
}

/** The same response, step after step: how many, whether whole or only their opening, and its head. */
function sameResponseWording(found: SameResponseFinding): Wording {
  const values = {
    count: String(found.count), sameness: SAME_RESPONSE_SAMENESS[found.whole ? 'whole' : 'opening'],
    head: oneLine(found.head, TEXT_PREVIEW_CHARS, found.head.length),
  }
  return {
    notice: () => ({ text: fill(SAME_RESPONSE_NOTICE, values), summary: summary(fill(SAME_RESPONSE_SUMMARY, values)) }),
    phrase: () => fill(SAME_RESPONSE_PHRASE, values),
  }
}

/** A response repeating itself, cut: where, what (a longer preview in the notice, a short one elsewhere), how often. */
function runawayWording(found: RunawayFinding): Wording {
  const copies = String(found.copies)
  const shortUnit = oneLine(found.unit, UNIT_SUMMARY_CHARS, found.unit.length)
  return {
    notice: () => ({
      text: fill(RUNAWAY_NOTICE, {
        part: RUNAWAY_PART[found.part], copies, unit: oneLine(found.unit, TEXT_PREVIEW_CHARS, found.unit.length),
      }),
      summary: summary(fill(RUNAWAY_SUMMARY, { unit: shortUnit, copies })),
    }),
    phrase: () => fill(RUNAWAY_PHRASE, { cuts: String(found.cuts), unit: shortUnit }),
    label: () => fill(RUNAWAY_LABEL, { unit: shortUnit, copies }),
  }
}

/**
 * Calls that brought no news: how many, the latest of them with what each returned, advice that fits what they returned
 * (and, for searches that still find nothing after a notice, that the thing is likely not there).
 */
function nearDuplicateWording(found: NearDuplicateFinding, again: boolean): Wording {
  const count = String(found.count)
  const calls = found.calls.map(call => ({
    tool: clip(call.tool, NAME_CHARS), arguments: clip(call.args, LISTED_ARGS_CHARS), returned: NEAR_DUPLICATE_RETURNED[call.returned],
  }))
  return {
    notice: () => ({
      text: fill(NEAR_DUPLICATE_NOTICE, {
        count, variants: String(found.variants), calls: calls.map(call => fill(NEAR_DUPLICATE_CALL_LINE, call)).join('\n'),
        // Told once that the searches find nothing, and still nothing: the thing is likely not there at all.
        advice: again && found.mostly === 'nothing' ? NEAR_DUPLICATE_ADVICE_AGAIN : NEAR_DUPLICATE_ADVICE[found.mostly],
      }),
      summary: summary(fill(NEAR_DUPLICATE_SUMMARY, { count })),
    }),
    phrase: () => fill(NEAR_DUPLICATE_PHRASE, { count, recent: calls.map(call => fill(NEAR_DUPLICATE_PHRASE_CALL, call)).join(', ') }),
  }
}

/** Paging over old ground: the file, how many windows went over lines already read, and those lines. */
function rereadingWording(found: RereadingFinding): Wording {
  const values = { count: String(found.count), file: clip(found.file, PATH_CHARS), ranges: lineRanges(found.ranges) }
  return {
    notice: () => ({
      text: fill(REREADING_NOTICE, values),
      summary: summary(fill(REREADING_SUMMARY, { ...values, file: clip(found.file, NAME_CHARS) })),
    }),
    phrase: () => fill(REREADING_PHRASE, values),
  }
}

/** Line ranges as a notice names them: `370-470, 533-560`, the first few, then how many more. */
function lineRanges(ranges: RereadingFinding['ranges']): string {
  const named = ranges.slice(0, LISTED_RANGES).map(range => range.first === range.last ? String(range.first) : `${range.first}-${range.last}`)
  const more = ranges.length - named.length
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ')
}

/** Edits undoing each other: the edit redone or the failure back, the check that shows it, and its failure. */
function editRevertWording(found: EditRevertFinding): Wording {
  const values = {
    tool: clip(found.tool, NAME_CHARS), arguments: clip(found.args, LISTED_ARGS_CHARS), file: clip(found.file, PATH_CHARS),
    count: String(found.count), failure: clip(found.failure, ARGS_PREVIEW_CHARS),
  }
  return {
    notice: () => ({
      text: fill(found.evidence === 'redo' ? EDIT_REVERT_NOTICE : EDIT_REVERT_BACK_NOTICE, values),
      summary: summary(fill(EDIT_REVERT_SUMMARY[found.evidence], values)),
    }),
    phrase: () => fill(EDIT_REVERT_PHRASE, values),
  }
}

/** The same failure after every fix: the check, its failure, the files edited meanwhile, and where it comes from. */
function sameFailureWording(found: SameFailureFinding): Wording {
  const values = {
    tool: clip(found.tool, NAME_CHARS), arguments: clip(found.args, LISTED_ARGS_CHARS), count: String(found.count),
    failure: clip(found.failure, ARGS_PREVIEW_CHARS),
  }
  const edited = found.edited.length === 0 ? 'files' : found.edited.map(file => clip(file, PATH_CHARS)).join(', ')
  const file = clip(found.origin, PATH_CHARS)
  // Where it is raised: past edits that did not touch it, past the script that calls it, or (no edit between) only there.
  const origin = found.origin === '' ? ''
    : found.script !== '' ? fill(SAME_FAILURE_SCRIPT_ORIGIN, { file, script: clip(found.script, PATH_CHARS) })
      : fill(found.edited.length === 0 ? SAME_FAILURE_RAISED : SAME_FAILURE_ORIGIN, { file })
  const filled = { ...values, edited, origin, commands: String(found.commands) }
  // One check's unchanged output; one failure under several commands; one check failing alike after edits.
  const [notice, short, phrase] = found.evidence === 'output'
    ? [SAME_OUTPUT_NOTICE, SAME_OUTPUT_SUMMARY, SAME_OUTPUT_PHRASE]
    : found.commands > 1
      ? [SAME_FAILURE_COMMANDS_NOTICE, SAME_FAILURE_COMMANDS_SUMMARY, SAME_FAILURE_COMMANDS_PHRASE]
      : [SAME_FAILURE_NOTICE, SAME_FAILURE_SUMMARY, SAME_FAILURE_PHRASE]
  return {
    notice: () => ({ text: fill(notice, filled), summary: summary(fill(short, filled)) }),
    phrase: () => fill(phrase, filled),
  }
}

/** Duplicate text: up to {@link LISTED_BLOCKS} blocks, each with its count, sources and a preview. */
function duplicateTextWording(found: DuplicateTextFinding): Wording {
  const window = duration(found.windowMs)
  const threshold = String(found.threshold)
  const lines = found.blocks.slice(0, LISTED_BLOCKS).map(block => fill(
    block.count > found.threshold ? DUPLICATE_BLOCK_LINE_SPREAD : DUPLICATE_BLOCK_LINE,
    { count: String(block.count), threshold, window, sources: block.sources.join(', '), preview: oneLine(block.head, TEXT_PREVIEW_CHARS, block.length) },
  ))
  const more = found.blocks.length - lines.length
  if (more > 0) lines.push(fill(MORE_BLOCKS_LINE, { more: String(more) }))
  const first = found.blocks[0]!
  const short = summary(fill(DUPLICATE_TEXT_SUMMARY, { times: String(first.count), source: first.sources[0] ?? 'unknown' }))
  return {
    notice: () => ({ text: fill(DUPLICATE_TEXT_NOTICE, { blocks: lines.join('\n') }), summary: short }),
    // Its notice comes on its own, never named by another's or by a stop: its summary says it in a phrase.
    phrase: () => short,
  }
}

/** Every kind in words, by its id. */
export const WORDINGS: { readonly [K in LoopKind]: KindWording<Extract<Finding, { kind: K }>> } = Object.freeze({
  'identical-calls': {
    words: identicalCallsWording, summaries: [IDENTICAL_CALLS_SUMMARY], phrases: [REFUSED_CALLS_PHRASE, IDENTICAL_CALLS_PHRASE],
  },
  'cycle': { words: cycleWording, summaries: [CYCLE_SUMMARY], phrases: [CYCLE_PHRASE] },
  'same-ground': { words: sameGroundWording, summaries: [SAME_GROUND_SUMMARY], phrases: [SAME_GROUND_PHRASE] },
  'same-error': { words: sameErrorWording, summaries: [SAME_INPUT_ERROR_SUMMARY, SAME_ERROR_SUMMARY], phrases: [SAME_ERROR_PHRASE] },
  'duplicate-text': { words: duplicateTextWording, summaries: [DUPLICATE_TEXT_SUMMARY], phrases: [] },
  'same-response': { words: sameResponseWording, summaries: [SAME_RESPONSE_SUMMARY], phrases: [SAME_RESPONSE_PHRASE] },
  'runaway': { words: runawayWording, summaries: [RUNAWAY_SUMMARY, RUNAWAY_LABEL], phrases: [RUNAWAY_PHRASE] },
  'edit-revert': { words: editRevertWording, summaries: [EDIT_REVERT_SUMMARY.back, EDIT_REVERT_SUMMARY.redo], phrases: [EDIT_REVERT_PHRASE] },
  'same-failure': {
    words: sameFailureWording,
    summaries: [SAME_FAILURE_SUMMARY, SAME_FAILURE_COMMANDS_SUMMARY, SAME_OUTPUT_SUMMARY],
    phrases: [SAME_FAILURE_PHRASE, SAME_FAILURE_COMMANDS_PHRASE, SAME_OUTPUT_PHRASE],
  },
  'near-duplicate': { words: nearDuplicateWording, summaries: [NEAR_DUPLICATE_SUMMARY], phrases: [NEAR_DUPLICATE_PHRASE] },
  'rereading': { words: rereadingWording, summaries: [REREADING_SUMMARY], phrases: [REREADING_PHRASE] },
})

/** The wording of a finding, by its kind. */
export function wordingOf(found: Finding, again = false): Wording {
  // Each kind's entry takes the findings of that kind: the registry's type pairs them, which one lookup cannot show.
  return (WORDINGS[found.kind].words as (found: Finding, again: boolean) => Wording)(found, again)
}
