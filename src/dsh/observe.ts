/**
 * From a DSH tool execution and its result to the observation the core reads.
 * @module dsh-brake/dsh/observe
 */
import type { ToolExecution, ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import { detached } from '../core/evidence/detach.js'
import { failureOf, reportedFailure, shownBy, withEnd } from '../core/evidence/failures.js'
import type { Identity } from '../core/identity/identify.js'
import { errorLine } from '../core/evidence/normalize.js'
import { REFUSED, resultOf } from '../core/evidence/results.js'
import type { CallObservation } from '../core/types.js'
import { facetsOf, foundNothing } from './lookups.js'
import { commandsOf, commandWords, type ShellLine } from '../core/identity/shell-command.js'
import { reportsShellFailure, shellEnd, withoutShellFailure } from './shell.js'
import { rejectsInput } from './tool-errors.js'

/** Characters of an error's line kept, at most (a notice quotes fewer). */
const ERROR_LINE_CHARS = 2000

/** The observation of one watched call; `refused` when this brake's guard refused it (its result is the refusal). */
export function observeCall(
  exec: ToolExecution, identity: Identity, result: Readonly<ToolExecutionResult>, refused: boolean,
): CallObservation {
  const text = contentText(result.content)
  // The error shape is only taken from real error results: a shell failure's first line is its output, not an error.
  // Bounded: a chain keeps its latest line, and a one-line error can be a whole JSON document. Detached, or the line
  // kept would keep the whole result alive.
  const line = result.isError ? detached(errorLine(text).slice(0, ERROR_LINE_CHARS)) : undefined
  // A shell command that exited non-zero is a failed call, although DSH reports it as a successful tool call. Only
  // a shell tool's output is read that way: a file that happens to end in `[exit code: 1]` is just its content.
  const shellFailed = identity.shell && reportsShellFailure(text)
  const failed = result.isError || shellFailed
  // What a lookup asked and showed; a call that changes files is no lookup, whatever its words.
  const facets = identity.kind === 'mutating' || refused ? undefined : facetsOf(exec.name, exec.arguments, identity.line)
  const lookup = facets?.lookup
  // A check: a call of class `default` that is no lookup, or a shell command that changes files and then runs
  // something (`cat > x.py <<EOF … EOF; python x.py`): an edit and a check in one call, or a run whose output is
  // captured into a log (`python train.py > train.log`: identify counts a log as a change that stands). Only a check's
  // outcome is read.
  const check = !refused && facets?.window === undefined && lookup === undefined
    && (identity.kind === 'default' || (identity.kind === 'mutating' && identity.shell && identity.changeStands))
  const body = check && shellFailed ? withoutShellFailure(text) : text
  const failure = check ? failureOf(body, failed) : undefined
  const shown = check && failure === undefined ? shownBy(body) : undefined
  // An outcome the same failure can count (a failure, or an output that did not report a pass): only then are a
  // failure worded in a run's output and the files its command names read (a passing run, most checks, needs neither).
  const counted = (failure !== undefined && !failure.loose) || shown?.passed === false
  // Every observation has every field, set or not: the detectors that read them then meet one shape of object.
  return {
    tool: exec.name,
    args: identity.args,
    key: identity.key,
    kind: identity.kind,
    result: refused ? REFUSED : resultOf(text),
    failed,
    refused,
    errorLine: line,
    inputError: line !== undefined && rejectsInput(result, line),
    changeStands: identity.changeStands,
    // Only a check's failure is judged (a test, a build, a script run), from what the command printed, not the closing
    // line DSH adds; a failure that printed nothing by how it ended (a hang with no output is one outcome).
    failure: failure === undefined || !shellFailed ? failure : withEnd(failure, body, shellEnd(text), identity.key),
    shown,
    // A run that did not fail may still report a failure in words (a simulator's trap, `Unknown command`).
    worded: shown?.passed === false ? reportedFailure(body) : undefined,
    inputs: counted && identity.line !== undefined ? commandInputs(identity.line) : undefined,
    edits: identity.edits,
    lookup,
    window: facets?.window,
    nothing: lookup !== undefined && foundNothing(text, result.isError),
  }
}

/**
 * A result's content as text for comparison: text blocks as they are, any other block by its type. A session log's
 * recorded results are read the same way (session-recording.ts), so a replayed call is the call the brake saw.
 */
export function contentText(content: readonly { readonly type: string; readonly text?: string }[]): string {
  const only = content[0]
  if (content.length === 1 && only?.type === 'text') return only.text ?? ''
  let text = ''
  for (const block of content) text += block.type === 'text' ? `${block.text ?? ''}\n` : `[${block.type}]\n`
  return text
}

/** Files a shell check names, at most this many. */
const INPUTS = 8
/** A word that names a file: a slash in it, or a name with an extension. */
const PATH_LIKE = /\/|\.[A-Za-z]\w{0,5}$/

/**
 * The files a shell command line names: the operands of its simple commands (wrappers left out) that look like paths
 * (a slash, or a name with an extension), at most {@link INPUTS}. Heredoc bodies are not read.
 */
function commandInputs(line: ShellLine): readonly string[] {
  const inputs: string[] = []
  for (const simple of commandsOf(line)) {
    for (const word of commandWords(simple.words).slice(1)) {
      if (word.startsWith('-') || !PATH_LIKE.test(word) || inputs.includes(word)) continue
      inputs.push(detached(word.slice(0, 200)))
      if (inputs.length === INPUTS) return inputs
    }
  }
  return inputs
}
