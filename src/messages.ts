/**
 * Every string the model reads, in one place. Each notice says what was seen, names one concrete alternative, and
 * quotes at most a bounded preview, never the whole payload. The README quotes the first template of each kind
 * verbatim, docs/notices.md every template, and a test keeps them in step.
 * Design: docs/design.md#source-layout
 * @module dsh-brake/messages
 */
import { loopCalls, type StopCause } from './core/stops.js'
import type { RunawayFinding, DuplicateTextFinding, LoopFinding, IdenticalCallsFinding, SameErrorFinding, SameResponseFinding, SameGroundFinding, CycleFinding, EditRevertFinding, SameFailureFinding, NearDuplicateFinding, RereadingFinding } from './core/kinds.js'
import type { Told } from './core/voice.js'
import { cut, fit } from './words/text.js'

/** Characters of canonical arguments quoted in a notice. */
export const ARGS_PREVIEW_CHARS = 200
/** Characters of each call's canonical arguments quoted in a revisit notice (it names several). */
export const REVISIT_ARGS_CHARS = 100
/** Characters of a repeated text block quoted in a notice. */
export const TEXT_PREVIEW_CHARS = 120
/** Characters of a tool name, or of a source label, quoted anywhere. */
export const NAME_CHARS = 64
/** Characters of a file's path quoted in a notice. */
export const PATH_CHARS = 100
/** Line ranges a rereading notice names at most. */
export const LISTED_RANGES = 4
/** Longest notice summary (DSH's context-summary convention). */
export const SUMMARY_CHARS = 120
/** Characters of a repeated unit a cut notice's summary quotes. */
export const UNIT_SUMMARY_CHARS = 40
/** Repeated blocks listed in one duplicate-text notice; the rest are counted. */
export const LISTED_BLOCKS = 3

/** A notice's model-facing text and its one-line summary for the collapsed row. */
export interface NoticeText {
  readonly text: string
  readonly summary: string
}

// Templates. `{name}` placeholders are filled in one pass, so text that is inserted (arguments, previews) is never
// scanned for placeholders itself.

/** The notice attached to the result of the call that reached a repeated-call threshold. */
export const REPEATED_CALL_NOTICE = `[dsh-brake] You have called \`{tool}\` with these exact arguments {count} times {evidence}:
{arguments}
{advice}`

/** What the repeats showed, completing the first line of {@link REPEATED_CALL_NOTICE}. */
export const CALL_EVIDENCE = {
  'same-result': 'and got the same result each time',
  'same-failure': 'and it failed the same way each time',
  'changed': 'since the last user message, although the results changed along the way',
} as const

/** The advice closing a repeated-call notice: one concrete alternative, fitting the tool's class and the evidence. */
export const CALL_ADVICE = {
  repeat: 'Calling it again will not tell you anything new. Use the result you already have, change the arguments, or take a different approach. If something is blocking you, stop and tell the user what it is.',
  poll: 'Polling more often will not make it finish sooner. Wait longer between polls (a single blocking wait, or a pause before the next check), do other work meanwhile, or tell the user what you are waiting for.',
  change: 'Making the same change again will not change the outcome. Check whether it is already in place, change what you write, or tell the user what is blocking you.',
  changed: 'If each run is the progress you expect, carry on; otherwise take a different approach, or tell the user what is blocking you.',
} as const

/**
 * The last line of a notice in deny mode about calls that repeat exactly (not a poller's, and below the deny count
 * for a repeated call): the refusals to come.
 */
export const DENY_WARNING = 'Identical calls beyond {denyCount} are refused until something changes or the user speaks again.'

/** The line after a notice's strongest evidence, naming what else the same loop shows (each one of {@link LOOP}). */
export const ALSO_LINE = 'The same loop also shows: {loops}.'

/** The collapsed-row summary of a repeated-call notice. */
export const REPEATED_CALL_SUMMARY = '{tool} × {count}, {short}'

/** The summary's short form of the evidence, filling `{short}`. */
export const SUMMARY_EVIDENCE = {
  'same-result': 'same result',
  'same-failure': 'same failure',
  'changed': 'results changed',
} as const

/** The notice attached to the result of the call that completed another lap of a call cycle. */
export const SEQUENCE_NOTICE = `[dsh-brake] The same {length} calls have run {laps} times in a row, each time with {sameness}: {cycle}.
This cycle is not making progress. Change one of its steps (other arguments or another tool), or stop and tell the user what is blocking you.`

/** What repeated in a cycle, filling `{sameness}`: with progress-aware counting, the results are part of it. */
export const SEQUENCE_SAMENESS = {
  results: 'the same arguments and the same results',
  arguments: 'the same arguments',
} as const

/** The collapsed-row summary of a sequence notice. */
export const SEQUENCE_SUMMARY = 'cycle × {laps}: {cycle}'

/** The notice attached to the result of the call that made a run of revisits long enough (or longer again). */
export const REVISIT_NOTICE = `[dsh-brake] Your last {count} calls each repeated a call you had already made and got the same result as before, with nothing changed in between. The calls you keep going back to:
{calls}
You are going over the same ground. Use what those results already told you, take a step you have not taken yet, or stop and tell the user what is blocking you.`

/** One call the revisit notice names, with how often it came up in the run. */
export const REVISIT_CALL_LINE = '- `{tool}` {arguments} ({count} times)'

/** The collapsed-row summary of a revisit notice. */
export const REVISIT_SUMMARY = '{count} calls in a row repeat earlier ones'

/** The notice attached to the result of the call that made a stretch of calls bringing no news long enough (or longer again). */
export const NEAR_DUPLICATE_NOTICE = `[dsh-brake] {count} of your latest calls, {variants} different ones, brought nothing new: each found nothing, or what you already had.
{calls}
{advice}`

// The variants of a near-duplicate notice's parts are shown filled in on docs/notices.md, the notice itself in the README.

/** One of the latest calls a near-duplicate notice names, with what it returned. */
const NEAR_DUPLICATE_CALL_LINE = '- `{tool}` {arguments}: {returned}'

/** What a call that brought no news returned, filling `{returned}`. */
const NO_NEWS = {
  'nothing': 'found nothing',
  'same-output': 'the same output as another of these calls',
  'repeat': 'the same result as before',
  'seen': 'only lines you had already seen',
} as const

/** The advice closing a near-duplicate notice, by what most of the calls returned. */
const NEAR_DUPLICATE_ADVICE = {
  'nothing': 'What you are looking for is not there under any of these names. Search wider (another directory, the whole repository) or differently (part of the name, a caller, the text of the error), check that your command can find anything at all (a filter may hide every result), or stop and tell the user what is blocking you.',
  'same-output': 'Changing the wording or the flags does not change the answer. Use what the output says, test a different hypothesis, or stop and tell the user what is blocking you.',
  'seen': 'You already have these results. Act on them, take a step you have not taken yet, or stop and tell the user what is blocking you.',
} as const

/** The collapsed-row summary of a near-duplicate notice. */
export const NEAR_DUPLICATE_SUMMARY = '{count} calls brought nothing new'

/** The notice attached to the result of the window that made paging over old ground a loop (or went on with it). */
export const REREADING_NOTICE = `[dsh-brake] You are paging over old ground: {count} windows of \`{file}\` went over lines you had already read, with nothing changed since (lines {ranges}).
You have read these lines: act on what they say (make the change, run the check, or search for the one thing you still need), or stop and tell the user what is blocking you.`

/** The collapsed-row summary of a rereading notice. */
export const REREADING_SUMMARY = '{file}: {count} windows over old ground'

/** The notice attached to the result of a tool's latest failure with an error it keeps giving, whatever the input. */
export const REPEATED_ERROR_NOTICE = `[dsh-brake] \`{tool}\` has failed {count} times with the same error, with {variants} different sets of arguments:
{error}
The inputs are not the problem: something the tool depends on is wrong (a missing file or program, permissions, the environment). Find and fix that cause, use another tool, or tell the user what is blocking you.`

/** The notice attached to the result of a tool's latest rejection of the model's input, with the same error each time. */
export const REPEATED_INPUT_ERROR_NOTICE = `[dsh-brake] \`{tool}\` has rejected your input {count} times with the same error, with {variants} different sets of arguments:
{error}
The error is about what you sent. Read it closely and fix that exactly (re-read the current text before you edit it, check the format the tool expects), or take another approach, or tell the user what is blocking you.`

/** The collapsed-row summary of a repeated-error notice. */
export const REPEATED_ERROR_SUMMARY = '{tool} failed × {count}, same error'

/** The collapsed-row summary of a repeated input-error notice. */
export const REPEATED_INPUT_ERROR_SUMMARY = '{tool} rejected input × {count}, same error'

/** The notice appended before a step whose claimed messages repeat text the agent already received. */
export const DUPLICATE_TEXT_NOTICE = `[dsh-brake] The same text keeps arriving in your context, unchanged:
{blocks}
It repeats what you already have and is not a new instruction: do not redo work because of it. If it asks for something you cannot do, tell the user instead of trying again.`

/** One repeated block, all of whose counted occurrences fell within the window. */
export const DUPLICATE_BLOCK_LINE = '- {count} times within {window}, from {sources}: "{preview}"'

/** One repeated block with more occurrences than the threshold, only the last of which fell within the window. */
export const DUPLICATE_BLOCK_LINE_SPREAD = '- {count} times, {threshold} of them within {window}, from {sources}: "{preview}"'

/** The last line of the block list when more blocks tripped than are listed. */
export const MORE_BLOCKS_LINE = '- repeated blocks not shown: {more}'

/** The collapsed-row summary of a duplicate-text notice. */
export const DUPLICATE_TEXT_SUMMARY = 'repeated text × {count} from {source}'

/**
 * The notice a response that fell into repeating itself leaves for the model's next step, once the brake cut it off:
 * what it kept repeating, and that the rest was never generated.
 */
export const CUT_NOTICE = `[dsh-brake] Your last response fell into repeating itself, so it was cut off there and the rest was never generated. In your {part}, this came {copies} times in a row:
{unit}
Do not write it again. Go on from where the repeating began: take the next step, or give a short final answer.`

/** Where a response repeated, filling `{part}`. */
export const CUT_PART = { text: 'answer', reasoning: 'reasoning' } as const

/**
 * The collapsed-row summary of a cut notice, for the person: DSH's web UI shows the cut response as it was kept, and
 * this row under it says why it ended there (the notice's text speaks to the model).
 */
export const CUT_SUMMARY = 'stopped this response, which kept repeating itself: {unit} × {copies}'

/**
 * A cut as the row of a stop names the loop it ended (`turn stopped in a loop (…)`): the cut's own summary tells of an
 * action, and nested in the stop's it would say "stopped" twice and leave no room for what repeated.
 */
export const CUT_LOOP_LABEL = 'a response repeating itself: {unit} × {copies}'

/** The notice after responses that said the same thing, or opened with the same passage, step after step. */
export const REPEATED_RESPONSE_NOTICE = `[dsh-brake] Your last {count} responses {sameness}, with nothing changed in between:
{head}
Saying it again will not move the task on. Take a step you have not taken yet, or stop and tell the user what is blocking you.`

/** What the responses had in common, filling `{sameness}`. */
export const RESPONSE_SAMENESS = { whole: 'said the same thing', opening: 'opened with the same passage' } as const

/** The collapsed-row summary of a repeated-response notice. */
export const REPEATED_RESPONSE_SUMMARY = 'same response × {count}'

/**
 * The notice attached to the result of a check (a test, a build, a script) that failed the same way again, after each
 * of the edits since its first run, none of which touched what the failure points to.
 */
export const SAME_FAILURE_NOTICE = `[dsh-brake] \`{tool}\` {arguments} failed the same way {count} times in a row, each after you edited {edited}:
{failure}
Your edits miss its cause. {origin}Find where it comes from before you edit again, or tell the user what is blocking you.`

/** Where the failure comes from, filling `{origin}` when the output names the file it was raised in. */
export const SAME_FAILURE_ORIGIN = 'It is raised in {file}, which those edits did not touch. '

/** The collapsed-row summary of a same-failure notice. */
export const SAME_FAILURE_SUMMARY = '{tool} failed × {count} after edits, same failure'

/** The notice attached to the result of a check that fails as before, after an edit the agent had undone was made again. */
export const EDIT_REVERT_NOTICE = `[dsh-brake] You undid an edit to {file} and made it again, and \`{tool}\` {arguments} fails as before:
{failure}
Redoing it will not change the outcome. Decide which version of {file} you want and try something new, or tell the user what is blocking you.`

/** The edit-revert notice when a failure the edits had made go away came back, again. */
export const EDIT_REVERT_BACK_NOTICE = `[dsh-brake] \`{tool}\` {arguments} has failed this way {count} times; each time your edits made the failure go away, it came back:
{failure}
Your edits are undoing each other. Decide which version you want to keep and build on it, or tell the user what is blocking you.`

/** The collapsed-row summary of an edit-revert notice. */
export const EDIT_REVERT_SUMMARY = {
  redo: 'edit undone and redone: {file}',
  back: '{tool} failure back × {count}',
} as const

/** The reason a refused call returns to the model (DSH shows it as `Error: <reason>`). */
export const DENIAL_REASON = 'dsh-brake refused this call: `{tool}` has already run {count} times with these exact arguments {scope}{refused}; another identical call will not give a different answer. Use the results you already have, change the arguments or the approach, or stop and tell the user what is blocking you. {unlock}'

/**
 * How many identical calls were refused before this one, filling `{refused}` (nothing on the first refusal): the
 * count says what ran, so a model is not told of runs that never happened.
 */
export const DENIAL_REFUSED = {
  one: ', and 1 more was refused',
  more: ', and {refused} more were refused',
} as const

/** What the refusal counted over, and what lifts it, for each counting mode. */
export const DENIAL_TERMS = {
  progress: {
    scope: 'while nothing changed',
    unlock: 'The same call is allowed again once something changes (a successful edit, a poll that reports news) or the user speaks.',
  },
  plain: {
    scope: 'since the last user message',
    unlock: 'The same call is allowed again after the next user message.',
  },
} as const

/**
 * Stop mode's reason for ending a turn: what the person reads (on the terminal, in the session log's `turn/end`, on a
 * blocked goal) and what a stopped subagent's parent reads. `{loop}` is one of {@link LOOP}.
 */
export const STOP_REASON = 'dsh-brake stopped the turn: a loop went on after its notice, with nothing changing. {loop}. Send a message to go on; the brake counts afresh.'

/** A loop in a phrase, by kind: what repeated and how many calls it took (a stop names its loop so, and a notice the rest of its loop). */
export const LOOP = {
  'identical-calls': '`{tool}` was called {count} times with the same arguments ({short}): {arguments}',
  'refused': '`{tool}` was called {count} times with the same arguments, the last of them refused: {arguments}',
  'cycle': 'The same {length} calls went round {laps} times ({calls} calls): {cycle}',
  'same-ground': '{count} calls in a row went back over earlier calls, most often {calls}',
  'same-error': '`{tool}` failed {count} times with the same error: {error}',
  'same-response': '{count} responses in a row {sameness}: {head}',
  'runaway': '{cuts} responses in this turn fell into repeating themselves and were cut, the last one repeating {unit}',
  'edit-revert': 'edits undid each other, and `{tool}` failed the same way {count} times: {failure}',
  'same-failure': '`{tool}` failed the same way {count} times in a row, each time after an edit: {failure}',
  'near-duplicate': '{count} calls brought nothing new, most recently {calls}',
  'rereading': '{count} windows of `{file}` went over lines already read ({ranges})',
} as const

/** One call a near-duplicate loop's phrase names, with what it returned. */
const LOOP_NEAR_DUPLICATE_CALL = '`{tool}` {arguments} ({returned})'

/** One call a revisit run's phrase names, with how often it came up. */
export const LOOP_REVISIT_CALL = '`{tool}` {arguments} ({count}×)'

/** The notice that closes a stopped turn: the person sees it in the transcript, the model with its next message. */
export const STOP_NOTICE = `[dsh-brake] The turn was stopped here because a loop went on after its notice, with nothing changing. {loop}.
Do not pick those calls up again. Say what is blocking you, or take an approach you have not tried.`

/**
 * The collapsed-row summary of the stop notice, for the person: DSH's web UI draws a turn a hook ended with no answer
 * and no marker of its own, so this row is where they learn why it ended and what to do. `{loop}` is the loop's own
 * summary (`read × 11, same result`).
 */
export const STOP_SUMMARY = 'turn stopped in a loop ({loop}); send a message to go on'

/** The line a stopped subagent's reason adds to its parent's failed delegation result. */
export const SUBAGENT_STOPPED_LINE = 'The subagent did not fail at the task: it was stopped in a loop. {reason} Do not hand out the same task again unchanged: narrow it, give it what it was missing, or take it on yourself.'

/**
 * The one notice about a loop at one call: its strongest evidence, then what else the same loop shows, then, in deny
 * mode (`denyCount` given), the refusals to come for calls that repeat exactly.
 */
export function loopNotice(told: Told, denyCount?: number): NoticeText {
  const { finding, also } = told
  const lead = findingNotice(finding)
  let text = lead.text
  if (also.length > 0) text += `\n${fill(ALSO_LINE, { loops: also.map(other => wording(other).phrase(false)).join('; ') })}`
  if (denyCount !== undefined && warnsOfRefusals(finding, denyCount)) text += `\n${fill(DENY_WARNING, { denyCount: String(denyCount) })}`
  return { text, summary: lead.summary }
}

/** The notice for one finding alone: a loop's notice before anything else about the loop is added. */
export function findingNotice(found: LoopFinding): NoticeText {
  return wording(found).notice()
}

/**
 * Whether a loop of each kind is made of calls that repeat exactly, which deny mode refuses past its count: a repeat,
 * a cycle, a run do; one error across arguments does not, nor do responses.
 */
const REPEATS_EXACTLY: Readonly<Record<LoopFinding['kind'], boolean>> = {
  'identical-calls': true, 'cycle': true, 'same-ground': true, 'same-error': false, 'same-response': false, 'runaway': false,
  // Each of their calls made a change: never refused.
  'edit-revert': false, 'same-failure': false,
  // Calls that differ, or windows that shift: never refused, whatever the count.
  'near-duplicate': false, 'rereading': false,
}

/**
 * Whether a notice leading with `finding` warns of refusals: its calls repeat exactly, and a repeated call is still
 * below the deny count; a poller is never refused.
 */
function warnsOfRefusals(finding: LoopFinding, denyCount: number): boolean {
  if (!REPEATS_EXACTLY[finding.kind]) return false
  return finding.kind !== 'identical-calls' || (finding.toolClass !== 'poller' && finding.count < denyCount)
}

/**
 * A finding in words: as the notice that leads with it, and as a phrase (one of {@link LOOP}) where another notice or
 * a stop names it. The values both fill in (clipped names and arguments, previews, counts) are worked out once, when
 * the wording is made; what only one of them says is worked out there.
 */
interface Wording {
  /** The notice for the finding alone. */
  notice(): NoticeText
  /** The finding in a phrase: what repeated and how many calls it took; `refused` when its last call was refused. */
  phrase(refused: boolean): string
  /** The loop as another row's summary names it, where its own summary tells of an action; else that summary. */
  label?(): string
}

/** The wording of a finding, by its kind. */
function wording(found: LoopFinding): Wording {
  switch (found.kind) {
    case 'identical-calls': return identicalCallsWording(found)
    case 'cycle': return cycleWording(found)
    case 'same-ground': return sameGroundWording(found)
    case 'same-error': return sameErrorWording(found)
    case 'same-response': return sameResponseWording(found)
    case 'runaway': return runawayWording(found)
    case 'edit-revert': return editRevertWording(found)
    case 'same-failure': return sameFailureWording(found)
    case 'near-duplicate': return nearDuplicateWording(found)
    case 'rereading': return rereadingWording(found)
  }
}

/** Identical calls: the tool, how often, with which arguments, and what the repeats showed. */
function identicalCallsWording(found: IdenticalCallsFinding): Wording {
  const values = {
    tool: clip(found.tool, NAME_CHARS), count: String(found.count), arguments: clip(found.args, ARGS_PREVIEW_CHARS),
    short: SUMMARY_EVIDENCE[found.evidence],
  }
  return {
    notice() {
      // One concrete alternative, fitting the tool's class and the evidence.
      const advice = found.evidence === 'changed' ? CALL_ADVICE.changed
        : found.toolClass === 'poller' ? CALL_ADVICE.poll
          : found.toolClass === 'mutating' ? CALL_ADVICE.change
            : CALL_ADVICE.repeat
      return {
        text: fill(REPEATED_CALL_NOTICE, { ...values, evidence: CALL_EVIDENCE[found.evidence], advice }),
        summary: summary(fill(REPEATED_CALL_SUMMARY, values)),
      }
    },
    phrase: refused => fill(refused ? LOOP.refused : LOOP['identical-calls'], values),
  }
}

/** A cycle: its calls' tools in order, its length and its laps. */
function cycleWording(found: CycleFinding): Wording {
  const values = {
    length: String(found.tools.length), laps: String(found.laps), cycle: found.tools.map(tool => clip(tool, NAME_CHARS)).join(' → '),
  }
  return {
    notice: () => ({
      text: fill(SEQUENCE_NOTICE, { ...values, sameness: found.sameResults ? SEQUENCE_SAMENESS.results : SEQUENCE_SAMENESS.arguments }),
      summary: summary(fill(SEQUENCE_SUMMARY, values)),
    }),
    phrase: () => fill(LOOP.cycle, { ...values, calls: String(loopCalls(found)) }),
  }
}

/** Going over the same ground: the run's length and the calls it keeps going back to, a line each or in a list. */
function sameGroundWording(found: SameGroundFinding): Wording {
  const count = String(found.count)
  const calls = found.calls.map(call => ({
    tool: clip(call.tool, NAME_CHARS), arguments: clip(call.args, REVISIT_ARGS_CHARS), count: String(call.count),
  }))
  return {
    notice: () => ({
      text: fill(REVISIT_NOTICE, { count, calls: calls.map(call => fill(REVISIT_CALL_LINE, call)).join('\n') }),
      summary: summary(fill(REVISIT_SUMMARY, { count })),
    }),
    phrase: () => fill(LOOP['same-ground'], { count, calls: calls.map(call => fill(LOOP_REVISIT_CALL, call)).join(', ') }),
  }
}

/** One error, different arguments: the tool, how often, the error, and whether it was about the input. */
function sameErrorWording(found: SameErrorFinding): Wording {
  const values = { tool: clip(found.tool, NAME_CHARS), count: String(found.count), error: clip(found.error, ARGS_PREVIEW_CHARS) }
  const input = found.cause === 'input'
  return {
    notice: () => ({
      text: fill(input ? REPEATED_INPUT_ERROR_NOTICE : REPEATED_ERROR_NOTICE, { ...values, variants: String(found.variants) }),
      summary: summary(fill(input ? REPEATED_INPUT_ERROR_SUMMARY : REPEATED_ERROR_SUMMARY, values)),
    }),
    phrase: () => fill(LOOP['same-error'], values),
  }
}

/** The same response, step after step: how many, whether whole or only their opening, and its head. */
function sameResponseWording(found: SameResponseFinding): Wording {
  const values = {
    count: String(found.count), sameness: RESPONSE_SAMENESS[found.whole ? 'whole' : 'opening'],
    head: oneLine(found.head, TEXT_PREVIEW_CHARS, found.head.length),
  }
  return {
    notice: () => ({ text: fill(REPEATED_RESPONSE_NOTICE, values), summary: summary(fill(REPEATED_RESPONSE_SUMMARY, values)) }),
    phrase: () => fill(LOOP['same-response'], values),
  }
}

/** A response repeating itself, cut: where, what (a longer preview in the notice, a short one elsewhere), how often. */
function runawayWording(found: RunawayFinding): Wording {
  const copies = String(found.copies)
  const shortUnit = oneLine(found.unit, UNIT_SUMMARY_CHARS, found.unit.length)
  return {
    notice: () => ({
      text: fill(CUT_NOTICE, { part: CUT_PART[found.part], copies, unit: oneLine(found.unit, TEXT_PREVIEW_CHARS, found.unit.length) }),
      summary: summary(fill(CUT_SUMMARY, { unit: shortUnit, copies })),
    }),
    phrase: () => fill(LOOP.runaway, { cuts: String(found.cuts), unit: shortUnit }),
    label: () => fill(CUT_LOOP_LABEL, { unit: shortUnit, copies }),
  }
}

/** Calls that brought no news: how many, the latest of them with what each returned, advice that fits what they returned. */
function nearDuplicateWording(found: NearDuplicateFinding): Wording {
  const count = String(found.count)
  const calls = found.calls.map(call => ({
    tool: clip(call.tool, NAME_CHARS), arguments: clip(call.args, REVISIT_ARGS_CHARS), returned: NO_NEWS[call.returned],
  }))
  return {
    notice: () => ({
      text: fill(NEAR_DUPLICATE_NOTICE, {
        count, variants: String(found.variants), calls: calls.map(call => fill(NEAR_DUPLICATE_CALL_LINE, call)).join('\n'),
        advice: NEAR_DUPLICATE_ADVICE[found.mostly],
      }),
      summary: summary(fill(NEAR_DUPLICATE_SUMMARY, { count })),
    }),
    phrase: () => fill(LOOP['near-duplicate'], { count, calls: calls.map(call => fill(LOOP_NEAR_DUPLICATE_CALL, call)).join(', ') }),
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
    phrase: () => fill(LOOP.rereading, values),
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
    tool: clip(found.tool, NAME_CHARS), arguments: clip(found.args, REVISIT_ARGS_CHARS), file: clip(found.file, PATH_CHARS),
    count: String(found.count), failure: clip(found.failure, ARGS_PREVIEW_CHARS),
  }
  return {
    notice: () => ({
      text: fill(found.evidence === 'redo' ? EDIT_REVERT_NOTICE : EDIT_REVERT_BACK_NOTICE, values),
      summary: summary(fill(EDIT_REVERT_SUMMARY[found.evidence], values)),
    }),
    phrase: () => fill(LOOP['edit-revert'], values),
  }
}

/** The same failure after every fix: the check, its failure, the files edited meanwhile, and where it comes from. */
function sameFailureWording(found: SameFailureFinding): Wording {
  const values = {
    tool: clip(found.tool, NAME_CHARS), arguments: clip(found.args, REVISIT_ARGS_CHARS), count: String(found.count),
    failure: clip(found.failure, ARGS_PREVIEW_CHARS),
  }
  const edited = found.edited.length === 0 ? 'files' : found.edited.map(file => clip(file, PATH_CHARS)).join(', ')
  const origin = found.origin === '' ? '' : fill(SAME_FAILURE_ORIGIN, { file: clip(found.origin, PATH_CHARS) })
  return {
    notice: () => ({
      text: fill(SAME_FAILURE_NOTICE, { ...values, edited, origin }), summary: summary(fill(SAME_FAILURE_SUMMARY, values)),
    }),
    phrase: () => fill(LOOP['same-failure'], values),
  }
}

/** The duplicate-text notice: up to {@link LISTED_BLOCKS} blocks, each with its count, sources and a preview. */
export function duplicateTextNotice(found: DuplicateTextFinding): NoticeText {
  const window = duration(found.windowMs)
  const threshold = String(found.threshold)
  const lines = found.blocks.slice(0, LISTED_BLOCKS).map(block => fill(
    block.count > found.threshold ? DUPLICATE_BLOCK_LINE_SPREAD : DUPLICATE_BLOCK_LINE,
    { count: String(block.count), threshold, window, sources: block.sources.join(', '), preview: oneLine(block.head, TEXT_PREVIEW_CHARS, block.length) },
  ))
  const more = found.blocks.length - lines.length
  if (more > 0) lines.push(fill(MORE_BLOCKS_LINE, { more: String(more) }))
  const first = found.blocks[0]!
  return {
    text: fill(DUPLICATE_TEXT_NOTICE, { blocks: lines.join('\n') }),
    summary: summary(fill(DUPLICATE_TEXT_SUMMARY, { count: String(first.count), source: first.sources[0] ?? 'unknown' })),
  }
}

/**
 * The refusal reason of deny mode, for progress-aware or plain counting: `ran` identical calls ran, and `refused` more
 * were refused before this one.
 */
export function denialReason(tool: string, ran: number, progressAware = true, refused = 0): string {
  const terms = progressAware ? DENIAL_TERMS.progress : DENIAL_TERMS.plain
  const before = refused === 0 ? '' : refused === 1 ? DENIAL_REFUSED.one : fill(DENIAL_REFUSED.more, { refused: String(refused) })
  return fill(DENIAL_REASON, { tool: clip(tool, NAME_CHARS), count: String(ran), refused: before, ...terms })
}

/** The reason a stop gives the person (and the session log, a blocked goal, a parent). */
export function stopReason(cause: StopCause): string {
  return fill(STOP_REASON, { loop: stopPhrase(cause) })
}

/** The notice that waits for the model's next turn after a stop. */
export function stopNotice(cause: StopCause): NoticeText {
  // The loop's summary is clipped, not the row's last words: what to do next must survive the bound.
  const room = SUMMARY_CHARS - (STOP_SUMMARY.length - '{loop}'.length)
  const named = wording(cause.loop)
  const loop = fit(named.label?.() ?? named.notice().summary, room)
  return { text: fill(STOP_NOTICE, { loop: stopPhrase(cause) }), summary: fill(STOP_SUMMARY, { loop }) }
}

/** The loop as a stop names it, in a sentence the template ends: a quoted error's own full stop is left out. */
function stopPhrase(cause: StopCause): string {
  return wording(cause.loop).phrase(cause.refused).replace(/\.+$/, '')
}

/** The line a parent's failed delegation result gains when the brake stopped the subagent. */
export function subagentStoppedLine(reason: string): string {
  return fill(SUBAGENT_STOPPED_LINE, { reason })
}

/**
 * Whether a tool result the model got is this brake's refusal, as DSH words a guard's reason (`Error: <reason>`):
 * how a session log shows the calls deny mode refused.
 */
export function isRefusalResult(text: string): boolean {
  return text.startsWith(REFUSAL_RESULT_START)
}

// Made once: the telemetry listener and `analyze` ask this of every failed result they read.
const REFUSAL_RESULT_START = `Error: ${DENIAL_REASON.slice(0, DENIAL_REASON.indexOf('{'))}`

/**
 * Whether a reason a turn was cancelled with is this brake's stop (the text {@link stopReason} makes): how a session
 * log shows the turns stop mode ended, and how a replay tells the stop lines it holds back from stderr.
 */
export function isStopReason(text: string): boolean {
  return text.startsWith(STOP_REASON_START)
}

const STOP_REASON_START = STOP_REASON.slice(0, STOP_REASON.indexOf('{'))

/** How a message source is named in a notice: its kind, and the plugin where there is one. */
export function sourceLabel(source: { readonly kind: unknown; readonly plugin?: unknown }): string {
  const kind = clip(String(source.kind), NAME_CHARS)
  return typeof source.plugin === 'string' ? `${kind} ${clip(source.plugin, NAME_CHARS)}` : kind
}

/** `text` cut to `max` characters with a marker saying how much was left out; never splits a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const head = cut(text, max)
  return `${head}… (+${text.length - head.length} more chars)`
}

/** A block's beginning on one line (runs of whitespace folded), cut to `max`; `total` is the whole block's length. */
function oneLine(head: string, max: number, total: number): string {
  const folded = head.replace(/\s+/g, ' ').trim()
  if (folded.length <= max && head.length >= total) return folded
  return `${cut(folded, max)}…`
}

/** A one-line summary within {@link SUMMARY_CHARS}, the ellipsis included. */
function summary(text: string): string {
  return fit(text, SUMMARY_CHARS)
}

/** Templates split at their placeholders: literal text at even indexes, placeholder names at odd ones. */
const splitTemplates = new Map<string, readonly string[]>()

/**
 * Fill `{name}` placeholders in one pass over the template (a value is never filled again; an unknown name stays as
 * it is). Each template is split once: a notice then costs a few string joins, not a regular-expression run with a
 * callback per placeholder. The templates are this module's constants, so the map stays small.
 */
function fill(template: string, values: Readonly<Record<string, string>>): string {
  let parts = splitTemplates.get(template)
  if (parts === undefined) splitTemplates.set(template, parts = template.split(/\{(\w+)\}/))
  let text = parts[0]!
  for (let i = 1; i < parts.length; i += 2) text += (values[parts[i]!] ?? `{${parts[i]!}}`) + parts[i + 1]!
  return text
}

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`
  if (ms % 60_000 === 0) return `${ms / 60_000} min`
  return `${Math.round(ms / 1000)} s`
}
