/**
 * What a failed check says, reduced to what stays the same when the failure does: the exception that stopped it and
 * where it was raised (the lines above change from run to run), or else its whole output. Two readings: the same
 * failure, and the same place.
 * Design: docs/design.md#progress-that-was-not-real
 * @module dsh-brake/core/evidence/failures
 */
import { detached } from './detach.js'
import { fingerprint } from '../tables/fingerprint.js'
import { normalizeResult } from './normalize.js'

/** A failure of a check, as its output tells it. Its text is detached from the output (`detach.ts`): detectors keep it. */
export interface Failure {
  /** Fingerprint of the failure as it reads (normalized; a long output's last {@link COMPARED_CHARS}): equal for the same failure. */
  readonly same: number
  /** Fingerprint of the exception and the file (for a syntax error, the line) it comes from: equal for the same place. */
  readonly place: number
  /** The line a notice quotes: the exception, or the output's last line (at most {@link LINE_CHARS}). */
  readonly line: string
  /** The file the exception was raised in, as the output names it; empty when it names none. */
  readonly origin: string
  /**
   * Files the failure points to, at most {@link NAMED_FILES}: the file an exception was raised in, or the files a
   * failure without one names near its end (a compiler's `src/app.ts(3,7)`, a test runner's `FAILED tests/x.py`).
   * An edit of one of them is an edit aimed at the failure.
   */
  readonly files: readonly string[]
  /**
   * For an exception, the files of the traceback's frames above the one that raised it (its callers: the script the
   * check runs, when the library it calls raises), at most {@link NAMED_FILES}; absent otherwise.
   */
  readonly callers?: readonly string[]
  /**
   * Whether only an exception among the output's last lines tells the failure: the call did not fail, and its output
   * goes on after the exception. Such a failure is known by its place; `same` is its whole output.
   */
  readonly loose: boolean
  /**
   * Whether only a line of the output tells it, in words, from a check that did not fail and ended in no exception
   * (see {@link reportedFailure}): a weaker reading, counted only across commands.
   */
  readonly worded?: true
}

/** Characters of a failure's line kept for a notice (it quotes fewer). */
export const LINE_CHARS = 300
/** Files a failure names that are kept. */
export const NAMED_FILES = 8
/** Non-blank lines from the end that are searched for the exception a failure ends in. */
const TAIL_LINES = 12
/** Lines before an exception searched for the frame it was raised in. */
const FRAME_LINES = 8
/**
 * Characters from the end of a failure without an exception that are compared: all of a short output, and the end
 * of a long one, where a test runner or a build says what failed (normalizing costs in proportion to the text).
 */
const COMPARED_CHARS = 2048
/** Characters from the end of an output searched for the files it names (a runner or a compiler names them last). */
const NAMED_TAIL_CHARS = 1000

/**
 * An exception as a runtime prints it: `NameError: name 'x' is not defined`, `django.db.utils.OperationalError: …`,
 * `TypeError: Cannot read properties of undefined`, `AssertionError`; or a tool's closing error: `error: …`,
 * `fatal: …`, `panic: …`.
 */
const EXCEPTION = /^(?:[A-Za-z_$][\w$.]*(?:Error|Exception|Exit|Interrupt|Fault)(?::.*)?|(?:error|fatal|panic)(?:\[[\w-]+\])?: .*)$/
/**
 * What every exception line holds (the words {@link EXCEPTION} ends its names with, or a closing `error: …`). Searched
 * from `lastIndex` on, so that a text's last lines are searched where they lie, not cut out.
 */
const MAY_RAISE = /E(?:rror|xception|xit)|Interrupt|Fault|(?:error|fatal|panic): /g
/** A compile-time error of Python: its place is a line, not a function. */
const SYNTAX = /^(?:SyntaxError|IndentationError|TabError)\b/
/** A Python frame: `  File "src/app.py", line 12, in main` (no function for a syntax error). */
const PYTHON_FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (\S+))?/
/** A JavaScript frame after the exception: `    at main (/app/src/index.js:12:5)`, `    at /app/src/index.js:12:5`. */
const JS_FRAME = /^\s+at (?:(\S+) \()?([^()\s]+?):(\d+):\d+\)?$/
/** The marker line under the code a runtime points at (`^^^^`, `~~~^^^`). */
const MARKER = /^\s*[~^]+\s*$/
/** A file name's extension: a dot, a letter, a few more word characters. */
const FILE_EXTENSION = /^\.[A-Za-z]\w{0,5}$/

/**
 * The failure a check's output tells, or undefined when it tells none. `body` is the output without the host's own
 * closing line (a shell's exit status line); `failed` whether the call failed.
 *
 * An output that ends in an exception (a JavaScript stack may follow it) is a failure whether or not the call failed
 * (a script that catches its exception and prints the traceback), known by that exception. A failed call's other
 * output is known by its whole text, and by the latest exception among its last lines, if any, for its place. An
 * exception among the last lines of an output that goes on after it, from a call that did not fail (a script that
 * runs a command, prints its traceback, and goes on), is a failure by place only: `loose`.
 */
export function failureOf(output: string, failed: boolean): Failure | undefined {
  const body = withoutIgnored(output)
  const start = tailStart(body, TAIL_LINES)
  // Most outputs are neither failed nor end in an exception: one search of their last lines, in place, says so.
  MAY_RAISE.lastIndex = start
  if (!failed && !MAY_RAISE.test(body)) return undefined
  const tail = body.slice(start)
  const lines = tail.split('\n').filter(line => line.trim() !== '')
  let last = lines.length - 1
  while (last >= 0 && JS_FRAME.test(lines[last]!)) last--
  let at = last
  while (at >= 0 && !EXCEPTION.test(lines[at]!.trim().slice(0, LINE_CHARS))) at--
  const exception = at === -1 ? undefined : exceptionOf(lines, at)
  if (exception !== undefined && at === last) return exception
  if (!failed && exception === undefined) return undefined
  const same = fingerprint(normalizeResult(body.length > COMPARED_CHARS ? body.slice(-COMPARED_CHARS) : body))
  if (!failed) {
    const { place, line, origin, files } = exception!
    return { same, place, line, origin, files, loose: true }
  }
  return {
    same, place: exception?.place ?? same, line: exception?.line ?? detached((lines.at(-1)?.trim() ?? '').slice(0, LINE_CHARS)),
    origin: exception?.origin ?? '', files: namedFiles(body.slice(-NAMED_TAIL_CHARS)), loose: false,
  }
}

/** The line Python prints before a traceback it ignored (an error in a `__del__` at exit, in a thread). */
const IGNORED = '\nException ignored in'

/**
 * `output` without the traceback Python ignored at its end (`Exception ignored in: <function …__del__>`, a temporary
 * file's cleanup at exit): noise after the run, not how it ended. Read from the end only.
 */
function withoutIgnored(output: string): string {
  // Nearly every output holds no such line: a search forward says so sooner than one from the end (V8 skips ahead
  // forward, and compares character by character backward).
  if (!output.includes(IGNORED)) return output
  const at = output.lastIndexOf(IGNORED)
  const rest = output.slice(at + IGNORED.length)
  // One traceback, the ignored one, to the end.
  const first = rest.indexOf('Traceback (most recent call last)')
  return first !== -1 && rest.indexOf('Traceback (most recent call last)', first + 1) === -1 ? output.slice(0, at + 1) : output
}

/** What the exception at `lines[at]` says: the failure it makes when it ends the output. */
function exceptionOf(lines: readonly string[], at: number): Failure {
  const exception = normalizeResult(lines[at]!.trim())
  let origin = ''
  let where = ''
  let code = ''
  // Python: the frame and the code line are above the exception; JavaScript: the frame is below it.
  let raisedAt = -1
  for (let back = at - 1; back >= Math.max(0, at - FRAME_LINES); back--) {
    const frame = PYTHON_FRAME.exec(lines[back]!)
    if (frame !== null) {
      origin = detached(frame[1]!)
      where = SYNTAX.test(exception) ? `${origin}:${frame[2]}` : `${origin} ${frame[3] ?? ''}`
      code = lines.slice(back + 1, at).find(line => !MARKER.test(line))?.trim() ?? ''
      raisedAt = back
      break
    }
  }
  const below = origin === '' ? JS_FRAME.exec(lines[at + 1] ?? '') : null
  if (below !== null) {
    origin = detached(below[2]!)
    where = `${origin} ${below[1] ?? ''}`
  }
  const place = SYNTAX.test(exception) ? where : origin
  return {
    same: fingerprint(`${where}\n${normalizeResult(code)}\n${exception}`),
    place: fingerprint(`${place}\n${exception}`),
    line: detached(exception.slice(0, LINE_CHARS)),
    origin,
    files: origin === '' ? [] : [origin],
    ...raisedAt === -1 ? {} : { callers: callersOf(lines, raisedAt, origin) },
    loose: false,
  }
}

/** The files of the Python frames above `lines[raisedAt]` (the frame that raised), other than `origin`, outermost first. */
function callersOf(lines: readonly string[], raisedAt: number, origin: string): string[] {
  const callers: string[] = []
  for (let at = 0; at < raisedAt && callers.length < NAMED_FILES; at++) {
    const file = PYTHON_FRAME.exec(lines[at]!)?.[1]
    if (file !== undefined && file !== origin && !callers.includes(file)) callers.push(detached(file))
  }
  return callers
}

/** Where the last `count` non-blank lines of `text` begin (found from its end: a long output is not split whole). */
function tailStart(text: string, count: number): number {
  let end = text.length
  let found = 0
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1
    if (!blank(text, start, end) && ++found === count) return start
    end = start - 1
  }
  return 0
}

/** Whether `text` from `start` to `end` is blank as `trim` tells it (read in place: most outputs' lines are not). */
function blank(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at)
    // Printable ASCII first, as nearly every line starts with it; the pattern knows the rest.
    if ((code > 32 && code < 127) || !TRIMMED.test(text[at]!)) return false
  }
  return true
}
/** A character `String.prototype.trim` takes away. */
const TRIMMED = /^\s$/

/** The distinct file names `text` holds, at most {@link NAMED_FILES}, first named first. */
function namedFiles(text: string): string[] {
  const names: string[] = []
  // A name has an extension, so only the runs of path characters around a dot can be one: most runs are words.
  // Each run is read once, outward from its first dot (a pattern that backtracks would cost more on long runs).
  for (let dot = text.indexOf('.'); dot !== -1;) {
    let start = dot
    while (start > 0 && isPathChar(text.charCodeAt(start - 1))) start--
    let end = dot + 1
    while (end < text.length && isPathChar(text.charCodeAt(end))) end++
    const name = text.slice(start, end).replace(/^[.@-]+|[.@-]+$/g, '')
    const last = name.lastIndexOf('.')
    if (last > 0 && FILE_EXTENSION.test(name.slice(last)) && /[A-Za-z]/.test(name.slice(0, last)) && !names.includes(name)) names.push(detached(name))
    if (names.length === NAMED_FILES) break
    dot = text.indexOf('.', end)
  }
  return names
}

/** Whether a character is one paths are written with: a letter, a digit, `_`, `.`, `/`, `@` or `-`. */
function isPathChar(code: number): boolean {
  // `-`, `.`, `/` and the digits are one range.
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x2d && code <= 0x39)
    || code === 0x5f || code === 0x40
}

/**
 * Whether two file names as a failure and an edit give them are the same file: equal, or one is the other with
 * leading directories (`/testbed/src/app.py` and `src/app.py`), a leading `./` aside.
 */
export function sameFile(a: string, b: string): boolean {
  const left = a.replace(/^(?:\.\/)+/, '')
  const right = b.replace(/^(?:\.\/)+/, '')
  if (left === right) return true
  const [long, short] = left.length > right.length ? [left, right] : [right, left]
  return short !== '' && long.endsWith(short) && long[long.length - short.length - 1] === '/'
}

/**
 * What a check that did not fail showed, for telling an unchanged outcome: its output as it reads (normalized; a long
 * output's last {@link COMPARED_CHARS}), and its last line for a notice to quote.
 */
export interface Shown {
  readonly same: number
  readonly line: string
  /** Whether the output reports that the check passed (its staying the same after edits is what work looks like). */
  readonly passed: boolean
}

/**
 * Words that report a check passed (`5 passed`, `build succeeded`, `OK`, `Test passed: True`): an output that says so
 * is a check confirming work, and its staying the same after edits is what work looks like.
 */
const SUCCESS = /\b(?:passed|succeeded|success(?:ful(?:ly)?)?)\b|\bOK\b/i

/**
 * What a check's output `body` shows, when the check did not fail (see {@link Shown}). A check that printed nothing and
 * did not fail ran quietly: it passed, as far as anyone can tell.
 */
export function shownBy(body: string): Shown {
  const start = tailStart(body, 1)
  const line = body.slice(start).trim()
  if (line === '') return PASSED
  const compared = body.length > COMPARED_CHARS ? body.slice(-COMPARED_CHARS) : body
  if (SUCCESS.test(compared)) return PASSED
  return { same: fingerprint(normalizeResult(compared)), line: detached(line.slice(0, LINE_CHARS)), passed: false }
}

/** What a check that reports success showed: only that (it is never compared). */
const PASSED: Shown = Object.freeze({ same: 0, line: '', passed: true })

/**
 * A failure whose output is empty, told apart by how the command ended (`end`: a timeout, or its exit status): a
 * script that hangs with no output and one that exits 1 with none are two outcomes. Every hang with no output is one,
 * whatever wrapper ran it; a silent exit status is its command's own (`command -v cmake`, `test -x configure`,
 * `pgrep server` all exit 1 silently, and say nothing alike), so it is known with the command's `key`. Other failures
 * are as they are.
 */
export function withEnd(failure: Failure, body: string, end: string, key: number): Failure {
  if (body.trim() !== '' || end === '') return failure
  const same = end === 'timeout' ? fingerprint(`\u0000${end}`) : fingerprint(`\u0000${end}\u0000${key}`)
  return { ...failure, same, place: same, line: end }
}

/**
 * A line that reports an error in words, in any program's output: `Error: …`, `error: …`, `Unknown command`, `… abort`,
 * `fatal`, `failed`, `Invalid argument`, `cannot …`, `No such file`, `Permission denied`, `Segmentation fault`.
 * Plurals in a summary (`0 errors`, `146 errors`) are counts, not a report.
 */
const ERROR_WORDS = /\b(?:error|abort(?:ed)?|fatal|fail(?:ed|ure)?|invalid|unknown command|cannot|can't|unable to|not found|no such|denied|refused|exception|traceback|segmentation fault|core dumped|panic)\b/i
/** The same, searched from `lastIndex` on. */
const ERROR_WORDS_IN_PLACE = new RegExp(ERROR_WORDS.source, 'gi')

/**
 * Lines that use those words without reporting a failure: a warning, a note or a record at info level, as a line begins
 * with one (`WARNING: … not found, using default`, `warnings.warn(…)`, `[warn] …`, `Note that only core commands are
 * listed as settings are not configured (error: …)`, `INFO: retry failed once`, a glog `I1207 12:00:00 …` or `W1207 …`)
 * or as Python writes a warning (`app.py:3: UserWarning: … cannot …`). A run that warns and goes on did not fail; a line
 * that only mentions warnings beside a failure (`1 failed, 2 warnings`, `1 warning and 1 error`) still reports it.
 */
const WARNING_LINE = /^(?:(?:warn(?:ing)?s?|note|hint|info)\b|\[(?:warn|note|info)|[IW]\d{4} )|\b[A-Z]\w*Warning: /i

/** A count of none (`0 failed`, `no errors`): read as no word of failure, the rest of its line still read. */
const NONE_COUNTED = /\b(?:0|no|zero) (?:failed|failures?|errors?)\b/gi

/**
 * The failure a check that did not fail reports in words: the last line among its last lines that reads as an error
 * (see {@link ERROR_WORDS}; counts of none left out) and is not a warning ({@link WARNING_LINE}), whatever noise came
 * before or after it (a simulator's prompts, a banner, `Goodbye`). Two runs that end on the same such line ended the
 * same way. Undefined when no line reads so.
 */
export function reportedFailure(body: string): Failure | undefined {
  const start = tailStart(body, TAIL_LINES)
  // Most outputs hold none of the words in their last lines: one search there, in place, says so before any line is
  // cut out. A word a trimmed line holds is one the text holds where it lies (trimming takes no word character, and no
  // word spans a line break).
  ERROR_WORDS_IN_PLACE.lastIndex = start
  if (!ERROR_WORDS_IN_PLACE.test(body)) return undefined
  const lines = body.slice(start).split('\n')
  for (let at = lines.length - 1; at >= 0; at--) {
    const line = lines[at]!.trim()
    if (line === '' || WARNING_LINE.test(line) || !ERROR_WORDS.test(line.replace(NONE_COUNTED, ''))) continue
    const said = normalizeResult(line.slice(0, LINE_CHARS))
    const same = fingerprint(`\u0001${said}`)
    return { same, place: same, line: detached(line.slice(0, LINE_CHARS)), origin: '', files: [], loose: false, worded: true }
  }
  return undefined
}
