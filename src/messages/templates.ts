/**
 * Every string the model reads, in one module: the templates of each kind's notice, its one-line summary and its
 * phrase (how a stop, or another notice about the same loop, names it), then the refusal and the stop. Each notice says
 * what was seen, names one concrete alternative, and quotes at most a bounded preview, never the whole payload. The
 * README quotes the first template of each kind verbatim, docs/notices.md every template, and a test keeps them in step.
 *
 * `{name}` placeholders are filled in one pass (words/template.ts), so text that is inserted (arguments, previews) is
 * never scanned for placeholders itself. A phrase is what the loop's finding says in a sentence: what repeated and how
 * many calls it took.
 * @module dsh-brake/messages/templates
 */

// Any notice

/** The line after a notice's strongest evidence, naming what else the same loop shows (each a `_PHRASE`). */
export const ALSO_LINE = 'The same loop also shows: {loops}.'

// Identical calls (`identical-calls`)

/** The notice attached to the result of the call that reached a repeated-call threshold. */
export const IDENTICAL_CALLS_NOTICE = `[dsh-brake] You have called \`{tool}\` with these exact arguments {count} times {evidence}:
{arguments}
{advice}`

/** What the repeats showed, completing the first line of {@link IDENTICAL_CALLS_NOTICE}. */
export const IDENTICAL_CALLS_EVIDENCE = {
  'same-result': 'and got the same result each time',
  'same-failure': 'and it failed the same way each time',
  'changed': 'since the last user message, although the results changed along the way',
} as const

/** The advice closing a repeated-call notice: one concrete alternative, fitting the tool's class and the evidence. */
export const IDENTICAL_CALLS_ADVICE = {
  repeat: 'Calling it again will not tell you anything new. Use the result you already have, change the arguments, or take a different approach. If something is blocking you, stop and tell the user what it is.',
  poll: 'Polling more often will not make it finish sooner. Wait longer between polls (a single blocking wait, or a pause before the next check), do other work meanwhile, or tell the user what you are waiting for.',
  change: 'Making the same change again will not change the outcome. Check whether it is already in place, change what you write, or tell the user what is blocking you.',
  changed: 'If each run is the progress you expect, carry on; otherwise take a different approach, or tell the user what is blocking you.',
} as const

/** The collapsed-row summary of a repeated-call notice. */
export const IDENTICAL_CALLS_SUMMARY = '{tool} × {count}, {short}'

/** The summary's short form of the evidence, filling `{short}`. */
export const IDENTICAL_CALLS_SHORT = {
  'same-result': 'same result',
  'same-failure': 'same failure',
  'changed': 'results changed',
} as const

/** Identical calls in a phrase. */
export const IDENTICAL_CALLS_PHRASE = '`{tool}` was called {count} times with the same arguments ({short}): {arguments}'

/** Identical calls in a phrase, when the last of them was refused. */
export const REFUSED_CALLS_PHRASE = '`{tool}` was called {count} times with the same arguments, the last of them refused: {arguments}'

// A cycle (`cycle`)

/** The notice attached to the result of the call that completed another lap of a call cycle. */
export const CYCLE_NOTICE = `[dsh-brake] The same {length} calls have run {laps} times in a row, each time with {sameness}: {cycle}.
This cycle is not making progress. Change one of its steps (other arguments or another tool), or stop and tell the user what is blocking you.`

/** What repeated in a cycle, filling `{sameness}`: with progress-aware counting, the results are part of it. */
export const CYCLE_SAMENESS = {
  results: 'the same arguments and the same results',
  arguments: 'the same arguments',
} as const

/** The collapsed-row summary of a sequence notice. */
export const CYCLE_SUMMARY = 'cycle × {laps}: {cycle}'

/** A cycle in a phrase. */
export const CYCLE_PHRASE = 'The same {length} calls went round {laps} times ({calls} calls): {cycle}'

// Going over the same ground (`same-ground`)

/** The notice attached to the result of the call that made a run of revisits long enough (or longer again). */
export const SAME_GROUND_NOTICE = `[dsh-brake] Your last {count} calls each repeated a call you had already made and got the same result as before, with nothing changed in between. The calls you keep going back to:
{calls}
You are going over the same ground. Use what those results already told you, take a step you have not taken yet, or stop and tell the user what is blocking you.`

/** One call the revisit notice names, with how often it came up in the run. */
export const SAME_GROUND_CALL_LINE = '- `{tool}` {arguments} ({count} times)'

/** The collapsed-row summary of a revisit notice. */
export const SAME_GROUND_SUMMARY = '{count} calls in a row repeat earlier ones'

/** Going over the same ground in a phrase. */
export const SAME_GROUND_PHRASE = '{count} calls in a row went back over earlier calls, most often {often}'

/** One call a revisit run's phrase names, with how often it came up. */
export const SAME_GROUND_PHRASE_CALL = '`{tool}` {arguments} ({count}×)'

// One error, different arguments (`same-error`)

/** The notice attached to the result of a tool's latest failure with an error it keeps giving, whatever the input. */
export const SAME_ERROR_NOTICE = `[dsh-brake] \`{tool}\` has failed {count} times with the same error, with {variants} different sets of arguments:
{error}
The inputs are not the problem: something the tool depends on is wrong (a missing file or program, permissions, the environment). Find and fix that cause, use another tool, or tell the user what is blocking you.`

/** The notice attached to the result of a tool's latest rejection of the model's input, with the same error each time. */
export const SAME_INPUT_ERROR_NOTICE = `[dsh-brake] \`{tool}\` has rejected your input {count} times with the same error, with {variants} different sets of arguments:
{error}
The error is about what you sent. Read it closely and fix that exactly (re-read the current text before you edit it, check the format the tool expects), or take another approach, or tell the user what is blocking you.`

/** The collapsed-row summary of a repeated-error notice. */
export const SAME_ERROR_SUMMARY = '{tool} failed × {count}, same error'

/** The collapsed-row summary of a repeated input-error notice. */
export const SAME_INPUT_ERROR_SUMMARY = '{tool} rejected input × {count}, same error'

/** One error, different arguments, in a phrase. */
export const SAME_ERROR_PHRASE = '`{tool}` failed {count} times with the same error: {error}'

// Calls that bring no news (`near-duplicate`)

/** The notice attached to the result of the call that made a stretch of calls bringing no news long enough (or longer again). */
export const NEAR_DUPLICATE_NOTICE = `[dsh-brake] {count} of your latest calls, {variants} different ones, brought nothing new: each found nothing, or what you already had.
{calls}
{advice}`

// The variants of a near-duplicate notice's parts are shown filled in on docs/notices.md, the notice itself in the README.

/** One of the latest calls a near-duplicate notice names, with what it returned. */
export const NEAR_DUPLICATE_CALL_LINE = '- `{tool}` {arguments}: {returned}'

/** What a call that brought no news returned, filling `{returned}`. */
export const NEAR_DUPLICATE_RETURNED = {
  'nothing': 'found nothing',
  'same-output': 'the same output as another of these calls',
  'repeat': 'the same result as before',
  'seen': 'only lines you had already seen',
} as const

/** The advice closing a near-duplicate notice, by what most of the calls returned. */
export const NEAR_DUPLICATE_ADVICE = {
  'nothing': 'What you are looking for is not there under any of these names. Search wider (another directory, the whole repository) or differently (part of the name, a caller, the text of the error), check that your command can find anything at all (a filter may hide every result), or stop and tell the user what is blocking you.',
  'same-output': 'Changing the wording or the flags does not change the answer. Use what the output says, test a different hypothesis, or stop and tell the user what is blocking you.',
  'seen': 'You already have these results. Act on them, take a step you have not taken yet, or stop and tell the user what is blocking you.',
} as const

/**
 * The advice closing a near-duplicate notice when the loop was told before and its searches still find nothing: the
 * thing is likely not there, and searching wider again is no advice.
 */
export const NEAR_DUPLICATE_ADVICE_AGAIN = 'You were told these searches find nothing, and they still do: what you are looking for most likely does not exist here. Stop searching for it; work from what you have found, create it if the task needs it, or tell the user it is missing.'

/** The collapsed-row summary of a near-duplicate notice. */
export const NEAR_DUPLICATE_SUMMARY = '{count} calls brought nothing new'

/** Calls that brought no news in a phrase. */
export const NEAR_DUPLICATE_PHRASE = '{count} calls brought nothing new, most recently {recent}'

/** One call a near-duplicate loop's phrase names, with what it returned. */
export const NEAR_DUPLICATE_PHRASE_CALL = '`{tool}` {arguments} ({returned})'

// Paging over old ground (`rereading`)

/** The notice attached to the result of the window that made paging over old ground a loop (or went on with it). */
export const REREADING_NOTICE = `[dsh-brake] You are paging over old ground: {count} windows of \`{file}\` went over lines you had already read, with nothing changed since (lines {ranges}).
You have read these lines: act on what they say (make the change, run the check, or search for the one thing you still need), or stop and tell the user what is blocking you.`

/** The collapsed-row summary of a rereading notice. */
export const REREADING_SUMMARY = '{file}: {count} windows over old ground'

/** Paging over old ground in a phrase. */
export const REREADING_PHRASE = '{count} windows of `{file}` went over lines already read ({ranges})'

// Duplicate text (`duplicate-text`)

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
export const DUPLICATE_TEXT_SUMMARY = 'repeated text × {times} from {source}'

// A response repeating itself (`runaway`)

/**
 * The notice a response that fell into repeating itself leaves for the model's next step, once the brake cut it off:
 * what it kept repeating, and that the rest was never generated.
 */
export const RUNAWAY_NOTICE = `[dsh-brake] Your last response fell into repeating itself, so it was cut off there and the rest was never generated. In your {part}, this came {copies} times in a row:
{unit}
Do not write it again. Go on from where the repeating began: take the next step, or give a short final answer.`

/** Where a response repeated, filling `{part}`. */
export const RUNAWAY_PART = { text: 'answer', reasoning: 'reasoning' } as const

/**
 * The collapsed-row summary of a cut notice, for the person: DSH's web UI shows the cut response as it was kept, and
 * this row under it says why it ended there (the notice's text speaks to the model).
 */
export const RUNAWAY_SUMMARY = 'stopped this response, which kept repeating itself: {unit} × {copies}'

/**
 * A cut as the row of a stop names the loop it ended (`turn stopped in a loop (…)`): the cut's own summary tells of an
 * action, and nested in the stop's it would say "stopped" twice and leave no room for what repeated.
 */
export const RUNAWAY_LABEL = 'a response repeating itself: {unit} × {copies}'

/** Responses repeating themselves, cut, in a phrase. */
export const RUNAWAY_PHRASE = '{cuts} responses in this turn fell into repeating themselves and were cut, the last one repeating {unit}'

// The same response, step after step (`same-response`)

/** The notice after responses that said the same thing, or opened with the same passage, step after step. */
export const SAME_RESPONSE_NOTICE = `[dsh-brake] Your last {count} responses {sameness}, with nothing changed in between:
{head}
Saying it again will not move the task on. Take a step you have not taken yet, or stop and tell the user what is blocking you.`

/** What the responses had in common, filling `{sameness}`. */
export const SAME_RESPONSE_SAMENESS = { whole: 'said the same thing', opening: 'opened with the same passage' } as const

/** The collapsed-row summary of a repeated-response notice. */
export const SAME_RESPONSE_SUMMARY = 'same response × {count}'

/** The same response, step after step, in a phrase. */
export const SAME_RESPONSE_PHRASE = '{count} responses in a row {sameness}: {head}'

// The same failure after every fix (`same-failure`)

/**
 * The notice attached to the result of a check (a test, a build, a script) that failed the same way again, after each
 * of the edits since its first run, none of which touched what the failure points to.
 */
export const SAME_FAILURE_NOTICE = `[dsh-brake] \`{tool}\` {arguments} failed the same way {count} times in a row, each after you edited {edited}:
{failure}
Your edits miss its cause. {origin}Find where it comes from before you edit again, or tell the user what is blocking you.`

/** Where the failure comes from, filling `{origin}` when the output names the file it was raised in. */
export const SAME_FAILURE_ORIGIN = 'It is raised in {file}, which those edits did not touch. '

/** Where the failure comes from, filling `{origin}` when no edit came between the runs (only other commands). */
export const SAME_FAILURE_RAISED = 'It is raised in {file}. '

/**
 * Where the failure comes from, filling `{origin}` when it is raised in another file but passes through the script the
 * check runs: the script calls what raises it, and its own setup is the likelier cause.
 */
export const SAME_FAILURE_SCRIPT_ORIGIN = 'It is raised in {file} when {script} calls it: look at what {script} itself sets up, names or imports. '

/** The collapsed-row summary of a same-failure notice. */
export const SAME_FAILURE_SUMMARY = '{tool} failed × {count} after edits, same failure'

/** The notice when runs under different commands (scripts, wrappers, flags) ended the same way, one failure. */
export const SAME_FAILURE_COMMANDS_NOTICE = `[dsh-brake] {count} runs under {commands} different commands ended the same way, the latest \`{tool}\` {arguments}:
{failure}
Another script, wrapper or flag does not change this outcome. {origin}Find what causes it before you run it again, or tell the user what is blocking you.`

/** The collapsed-row summary of {@link SAME_FAILURE_COMMANDS_NOTICE}. */
export const SAME_FAILURE_COMMANDS_SUMMARY = '{count} runs, {commands} commands, same failure'

/** The notice when one check that did not fail showed the same output after every edit. */
export const SAME_OUTPUT_NOTICE = `[dsh-brake] \`{tool}\` {arguments} showed the same output {count} times, each after you edited {edited}, ending:
{failure}
Your edits do not change what it shows. Check that they reach what it runs (the file, the module, a cache or build in between) before you edit again, or tell the user what is blocking you.`

/** The collapsed-row summary of {@link SAME_OUTPUT_NOTICE}. */
export const SAME_OUTPUT_SUMMARY = '{tool} × {count} after edits, same output'

/** The same failure after every fix in a phrase. */
export const SAME_FAILURE_PHRASE = '`{tool}` failed the same way {count} times in a row, each time after an edit: {failure}'

/** Runs under different commands that ended the same way, in a phrase. */
export const SAME_FAILURE_COMMANDS_PHRASE = '{count} runs under {commands} different commands ended the same way: {failure}'

/** One check's unchanged output after edits, in a phrase. */
export const SAME_OUTPUT_PHRASE = '`{tool}` showed the same output {count} times, each time after an edit: {failure}'

// Edits that undo each other (`edit-revert`)

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

/** Edits that undo each other in a phrase. */
export const EDIT_REVERT_PHRASE = 'edits undid each other, and `{tool}` failed the same way {count} times: {failure}'

// Refusal (deny mode)

/**
 * The last line of a notice in deny mode about calls that repeat exactly (not a poller's, and below the deny count
 * for a repeated call): the refusals to come.
 */
export const DENY_WARNING = 'Identical calls beyond {denyCount} are refused until something changes or the user speaks again.'

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

// Stop (stop mode)

/**
 * Stop mode's reason for ending a turn: what the person reads (on the terminal, in the session log's `turn/end`, on a
 * blocked goal) and what a stopped subagent's parent reads. `{loop}` is a kind's phrase (`_PHRASE`).
 */
export const STOP_REASON = 'dsh-brake stopped the turn: a loop went on after its notice, with nothing changing. {loop}. A new turn starts with fresh counts.'

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
