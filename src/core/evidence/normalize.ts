/**
 * Normalizing tool output before it is compared: two results that differ only in what changes on every run anyway
 * (a timestamp, a duration, a process id, a temporary path) are the same result. Plain counts such as "3 passed" stay:
 * they carry meaning, and a count that moves is progress.
 * @module dsh-brake/core/evidence/normalize
 */

const MONTH_NAME = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)'
const MONTH = `${MONTH_NAME}[a-z]*`
const WEEKDAY = '(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*'
/** A duration's unit, after its number. */
const TIME_UNIT = '(?:ns|µs|us|ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)\\b'
/** What introduces a process id, before its number. */
const PID_LABEL = '(?:pid|process)(?:[^\\S\\n]|[:=#])*'
/** The Unix temporary directories, slashes included: a path under one is temporary. */
const UNIX_TEMP_DIR = '/(?:tmp|var/tmp|var/folders)/'

/**
 * Fragments that differ from run to run without meaning anything, tried left to right at each position. All but the
 * Unix temporary paths start at a word boundary, with a character from a short list: the shared `\b` and the
 * look-ahead let the engine skip every other position at once. No fragment
 * spans a line break (spaces inside one are `[^\S\n]`), so a text normalizes line by line. Every kind of fragment
 * must have a mark in {@link VOLATILE_MARK}: a line holding only a fragment without one would go unnormalized, so a new
 * kind also needs a sample in the property test over texts built of whole fragments (test/unit/core/normalize.spec.ts).
 */
export const VOLATILE = new RegExp(`\\b(?=[\\da-fjmnopstw]|[a-z]:\\\\)(?:${[
  // UUIDs, then long hexadecimal ids (commit hashes, container ids, memory addresses).
  '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\b',
  '(?:0x)?(?=[0-9a-f]*\\d)(?=[0-9a-f]*[a-f])[0-9a-f]{12,}\\b',
  '0x[0-9a-f]{6,}\\b',
  // ISO-8601 dates and date-times, with fractions and a zone.
  '\\d{4}-\\d{2}-\\d{2}(?:[t ]\\d{2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?(?:z|[+-]\\d{2}:?\\d{2})?)?\\b',
  // Written-out dates: "Mon, 30 Nov 2026", "Mon Nov 30", "30 Nov 2026", "Nov 30, 2026".
  `(?:${WEEKDAY},? )?(?:\\d{1,2} ${MONTH}(?: \\d{4})?|${MONTH} \\d{1,2}(?:,? \\d{4})?)\\b`,
  // Clock times (with seconds) and slashed dates.
  '\\d{1,2}:\\d{2}:\\d{2}(?:[.,]\\d+)?\\b',
  '\\d{1,2}/\\d{1,2}/\\d{2,4}\\b',
  // Unix epoch seconds or milliseconds.
  '1\\d{9}(?:\\d{3})?\\b',
  // Durations: 12ms, 1.5 s, 3 seconds, 2m, 4 minutes, 1h.
  `\\d+(?:\\.\\d+)?[^\\S\\n]?${TIME_UNIT}`,
  // Process ids.
  `${PID_LABEL}\\d+`,
  // Windows temporary paths.
  '[a-z]:\\\\(?:[^\\s\\\\]+\\\\)*?(?:temp|tmp)\\\\[^\\s\'"`)\\]}]+',
].join('|')})|${
  // Unix temporary paths.
  `(?:/private)?${UNIX_TEMP_DIR}[^\\s'"\`)\\]}]+`}`, 'gi')

/**
 * What every volatile fragment holds at least one of: a digit (all but two kinds need one), a hyphen (a UUID made of
 * hexadecimal letters only) or the name of a temporary directory. A line without any of them has nothing to replace.
 * It, not the narrower {@link VOLATILE_MARK}, says which lines `differsBeyondNormalizing` judges alone. Narrowing it
 * would change which results `sameResult` marks owed, and so which keep a normalized fingerprint once their text is
 * let go.
 */
const MAY_CHANGE = /\d|-|te?mp|var\/folders/gi

/**
 * A mark that every volatile fragment leaves on its line: a line without one has nothing to replace. Narrower than
 * {@link MAY_CHANGE}, which test output and numbered file listings meet on almost every line (a line number, a count,
 * `python3`): most fragments hold a digit run that ends in a telling way (a unit, a colon and two digits, a month), so
 * the marks are read where a digit run ends. Each mark lies within the fragment it stands for, its look-arounds
 * included (none reaches past a line break), so a line without any holds no fragment, whatever surrounds it.
 */
const VOLATILE_MARK = new RegExp(`\\d(?!\\d)(?:${[
  // A long hexadecimal id holds a digit run; the id is the whole hexadecimal run around it, twelve characters or more.
  '(?=[\\da-f]*(?![\\da-f])(?<=[\\da-f]{12}))',
  // `0x`, an ISO date's year, a written date's day before its month or after it, a clock time's hours, a slashed
  // date's first number.
  'x[\\da-f]', '-\\d', ` ${MONTH_NAME}`, `(?<=${MONTH} \\d+)`, ':\\d\\d:', '/\\d',
  // An epoch: the whole run, ten or thirteen digits.
  '(?<=\\d{10})',
  // A duration's number, or its fraction, and its unit.
  `[^\\S\\n]?${TIME_UNIT}`,
  // A process id.
  `(?<=${PID_LABEL}\\d+)`,
].join('|')})|${[
  // A UUID's second group, the temporary directories.
  '-[\\da-f]{4}-', '\\\\(?<=te?mp\\\\)', UNIX_TEMP_DIR,
].join('|')}`, 'gi')

/**
 * Tool output with its volatile fragments replaced by a placeholder. The fragments' pattern is tried only on the lines
 * that bear a mark of one (runs of such lines at once): it costs far more per character than looking for a mark, and
 * in long output and test output most lines bear none.
 */
export function normalizeResult(text: string): string {
  VOLATILE_MARK.lastIndex = 0
  if (!VOLATILE_MARK.test(text)) return text
  let normalized = ''
  // Up to `done`, the text is in `normalized`; the run of lines from `from` to `to` may change.
  let done = 0
  let from = lineStart(text, VOLATILE_MARK.lastIndex)
  let to = lineEnd(text, VOLATILE_MARK.lastIndex)
  for (;;) {
    VOLATILE_MARK.lastIndex = to
    const more = VOLATILE_MARK.test(text)
    // A mark on the very next line joins the run.
    if (more && lineStart(text, VOLATILE_MARK.lastIndex) === to + 1) {
      to = lineEnd(text, VOLATILE_MARK.lastIndex)
      continue
    }
    normalized += text.slice(done, from) + text.slice(from, to).replace(VOLATILE, '∅')
    done = to
    if (!more) return normalized + text.slice(done)
    from = lineStart(text, VOLATILE_MARK.lastIndex)
    to = lineEnd(text, VOLATILE_MARK.lastIndex)
  }
}

/** Where the line holding the character before `after` starts (a search's hit, which never holds a line break). */
function lineStart(text: string, after: number): number {
  return text.lastIndexOf('\n', after - 1) + 1
}

/** Where the line holding the character before `after` ends: its line break, or the text's end. */
function lineEnd(text: string, after: number): number {
  const newline = text.indexOf('\n', after)
  return newline === -1 ? text.length : newline
}

/** How far `differsBeyondNormalizing` looks for where two texts part; a longer shared beginning is left to normalizing. */
const COMPARED_CHARS = 64

/**
 * Whether two texts certainly normalize differently, told from the line where they part: normalizing works line by
 * line, so where that line holds nothing a volatile fragment needs (and no placeholder), in either text, it stays as
 * it is while the other text's line differs from it, fragments replaced or not. `false` means: not known without
 * normalizing (the texts may differ only in fragments, or part beyond their first 64 characters). Cheap: most
 * changed output parts in its first words, and normalizing both texts costs far more.
 */
export function differsBeyondNormalizing(a: string, b: string): boolean {
  const limit = Math.min(a.length, b.length, COMPARED_CHARS)
  let at = 0
  while (at < limit && a.charCodeAt(at) === b.charCodeAt(at)) at++
  // Alike as far as looked, or the same text.
  if (at === COMPARED_CHARS || (at === limit && a.length === b.length)) return false
  const lineStart = at === 0 ? 0 : a.lastIndexOf('\n', at - 1) + 1
  return plainLine(a, lineStart) || plainLine(b, lineStart)
}

/**
 * Whether two texts normalize to the same text, reading only the lines where they differ: normalizing works line by
 * line and keeps every line break, so the lines both begin with and the lines both end with normalize alike in each,
 * and the two are the same exactly when the lines between pair up one for one, each pair equal or normalizing alike.
 * The first pair that does not ends the comparison.
 */
export function sameNormalized(a: string, b: string): boolean {
  const shorter = Math.min(a.length, b.length)
  let head = 0
  while (head < shorter && a.charCodeAt(head) === b.charCodeAt(head)) head++
  let tail = 0
  while (tail < shorter - head && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)) tail++
  // From the start of the line where they part to the end of the line where they meet again (the same in both: the
  // rest of that line is the shared end).
  const from = head === 0 ? 0 : a.lastIndexOf('\n', head - 1) + 1
  const lineEnd = a.indexOf('\n', a.length - tail)
  const after = lineEnd === -1 ? 0 : a.length - lineEnd
  const endA = a.length - after
  const endB = b.length - after
  for (let atA = from, atB = from; ;) {
    const breakA = a.indexOf('\n', atA)
    const breakB = b.indexOf('\n', atB)
    const lastA = breakA === -1 || breakA >= endA
    // One text has more lines here than the other: normalized, it still has.
    if (lastA !== (breakB === -1 || breakB >= endB)) return false
    const lineA = a.slice(atA, lastA ? endA : breakA)
    const lineB = b.slice(atB, lastA ? endB : breakB)
    if (lineA !== lineB && normalizeResult(lineA) !== normalizeResult(lineB)) return false
    if (lastA) return true
    atA = breakA + 1
    atB = breakB + 1
  }
}

/** Whether the line of `text` from `start` holds neither a character or name a volatile fragment needs, nor `∅`. */
function plainLine(text: string, start: number): boolean {
  const newline = text.indexOf('\n', start)
  const end = newline === -1 ? text.length : newline
  MAY_CHANGE.lastIndex = start
  // A hit in the line ends within it: none of the characters or names looked for is a line break.
  if (MAY_CHANGE.test(text) && MAY_CHANGE.lastIndex <= end) return false
  const placeholder = text.indexOf('∅', start)
  return placeholder === -1 || placeholder >= end
}

/** What an error message looks like once paths, numbers and ids are gone (for "same error, other arguments"). */
const PARTICULARS = /(?:[a-z]:)?(?:[\w.@~-]*[\\/])+[\w.@~-]*|\d+/gi

/**
 * The shape of a failure: its first non-empty line, normalized as a result, then with paths and numbers replaced, so
 * `ENOENT: no such file or directory, open 'src/a.ts'` and `… open 'lib/b.ts'` are the same error.
 */
export function normalizeError(text: string): string {
  return normalizeResult(errorLine(text).trim()).replace(PARTICULARS, '∅')
}

/** The line an error is known by: its first non-empty one among the first eight, or `''`. */
export function errorLine(text: string): string {
  return text.split('\n', 8).find(line => line.trim() !== '') ?? ''
}
