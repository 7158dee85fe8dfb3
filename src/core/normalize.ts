/**
 * Normalizing tool output before it is compared: two results that differ only in what changes on every run anyway
 * (a timestamp, a duration, a process id, a temporary path) are the same result. Plain counts such as "3 passed" stay:
 * they carry meaning, and a count that moves is progress.
 * @module dsh-brake/core/normalize
 */

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*'
const WEEKDAY = '(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*'

/**
 * Fragments that differ from run to run without meaning anything, tried left to right at each position. All but the
 * Unix temporary paths start at a word boundary, with a character from a short list: the shared `\b` and the
 * look-ahead let the engine skip every other position at once, which makes the scan about twice as fast.
 */
const VOLATILE = new RegExp(`\\b(?=[\\da-fjmnopstw]|[a-z]:\\\\)(?:${[
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
  '\\d+(?:\\.\\d+)?\\s?(?:ns|µs|us|ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)\\b',
  // Process ids.
  '(?:pid|process)[\\s:=#]*\\d+',
  // Windows temporary paths.
  '[a-z]:\\\\(?:[^\\s\\\\]+\\\\)*?(?:temp|tmp)\\\\[^\\s\'"`)\\]}]+',
].join('|')})|${
  // Unix temporary paths.
  '(?:/private)?/(?:tmp|var/tmp|var/folders)/[^\\s\'"`)\\]}]+'}`, 'gi')

/** Tool output with its volatile fragments replaced by a placeholder. */
export function normalizeResult(text: string): string {
  return text.replace(VOLATILE, '∅')
}

/** What an error message looks like once paths, numbers and ids are gone (for "same error, other arguments"). */
const PARTICULARS = /(?:[a-z]:)?(?:[\w.@~-]*[\\/])+[\w.@~-]*|\d+/gi

/**
 * The shape of a failure: its first non-empty line, normalized as a result, then with paths and numbers replaced, so
 * `ENOENT: no such file or directory, open 'src/a.ts'` and `… open 'lib/b.ts'` are the same error.
 */
export function normalizeError(text: string): string {
  const line = text.split('\n', 8).find(candidate => candidate.trim() !== '') ?? ''
  return normalizeResult(line.trim()).replace(PARTICULARS, '∅')
}

/**
 * The closing line DSH's shell tools (`bash`, `pwsh`) give a command that exited non-zero, timed out or was killed,
 * matched against the last non-blank line only (sticky: `lastIndex` is set to where that line starts).
 */
const SHELL_FAILURE = /\[(?:exit code: -?[1-9]\d*|timed out after [^\]\n]*|killed by signal: [^\]\n]*)\]$/y

/**
 * Whether a successful tool result reports a failed command. DSH's shell tools return a non-zero exit as a success
 * whose text ends in `[exit code: N]`; for judging repeats it is a failure all the same. Only the end of the text is
 * read, so a long output costs no more than a short one.
 */
export function reportsShellFailure(text: string): boolean {
  const trimmed = text.trimEnd()
  // `]` is U+005D.
  if (trimmed.charCodeAt(trimmed.length - 1) !== 0x5d) return false
  // Sticky, from the start of the last line: the line is matched where it lies, without a copy of it.
  SHELL_FAILURE.lastIndex = trimmed.lastIndexOf('\n') + 1
  return SHELL_FAILURE.test(trimmed)
}
