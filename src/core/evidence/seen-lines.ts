/**
 * Lines already seen: whether every line of content of a lookup's result was shown before, read in place (nothing is
 * cut out of the text) and remembered by fingerprint in a bounded table.
 * @module dsh-brake/core/evidence/seen-lines
 */
import { lineFingerprints } from '../tables/fingerprint.js'
import type { LruTable } from '../tables/lru-table.js'

/** Lines of one result looked at, at most: a longer result is news (it is rarely all old, and it would cost). */
const RESULT_LINES = 256
/**
 * The result being read: where each of its lines ends (its line break, or the text's end for the last), where each of
 * its lines of content starts and ends, and that content's fingerprint. One result is read at a time, start to end,
 * whatever the agent: every detector shares these, so no agent grows arrays of its own for them, and typed arrays keep
 * the fingerprints unboxed.
 */
const ends = new Int32Array(RESULT_LINES)
const contentStarts = new Int32Array(RESULT_LINES)
const contentEnds = new Int32Array(RESULT_LINES)
const contentKeys = new Float64Array(RESULT_LINES)
/** Characters of content below which a line says nothing on its own (a brace, `else:`). */
const CONTENT_LINE = 4

/**
 * Whether every line of content of a lookup's result was seen before: each line without its number and the white
 * space around it, lines too short to say anything left out, each hashed where it lies (nothing is cut out of the
 * text). Its lines are remembered either way (a line met twice in one result counts as seen the second time). A
 * result of more than `RESULT_LINES` lines is news, and is not remembered: told by its line breaks, before any line
 * is hashed.
 */
export function allSeen(seen: LruTable, text: string): boolean {
  const count = lineEnds(text, RESULT_LINES, ends)
  if (count === -1) return false
  let lines = 0
  let from = 0
  for (let line = 0; line < count; line++) {
    const end = ends[line]!
    let first = from + numberLength(text, from, end)
    let last = end
    while (first < last && isSpace(text.charCodeAt(first))) first++
    while (last > first && isSpace(text.charCodeAt(last - 1))) last--
    if (last - first >= CONTENT_LINE) {
      contentStarts[lines] = first
      contentEnds[lines++] = last
    }
    from = end + 1
  }
  lineFingerprints(text, contentStarts, contentEnds, lines, contentKeys)
  let unseen = 0
  for (let line = 0; line < lines; line++) {
    seen.use(contentKeys[line]!)
    if (seen.added) unseen++
  }
  return lines > 0 && unseen === 0
}

/**
 * Where each line of `text` ends (its line break, or the text's end for the last), into `ends` from 0 on, and how
 * many lines there are; -1, with `ends` left unfinished, when there are more than `most`. A result's lines are
 * counted this way before any is hashed.
 */
function lineEnds(text: string, most: number, ends: Int32Array): number {
  let lines = 0
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    // This break begins line `lines + 2`.
    if (lines + 1 === most) return -1
    ends[lines++] = at
  }
  ends[lines++] = text.length
  return lines
}

/**
 * A line's number in front of its content, as files and searches print it: `  12\t`, `12:`, `Line 12: `,
 * `path:12:` or `path-12-`.
 */
export const LINE_NUMBER = /^\s*(?:Line\s+)?\d+(?:[:\t]|-(?=\s))|^[^\s:]+[:-]\d+[:-]/
/**
 * The same, read in place from a line's start in the whole text: no white space it takes may be a line break, so it
 * matches a line of at most `NUMBER_CHARS` characters exactly as `LINE_NUMBER` matches the line cut out on its own.
 */
const LINE_NUMBER_IN_PLACE = /(?:[^\S\n]*(?:Line[^\S\n]+)?\d+(?:[:\t]|-(?=[^\S\n]))|[^\s:]+[:-]\d+[:-])/y
/** Characters at the start of a line where its number is looked for. */
const NUMBER_CHARS = 200

/** The length of the line number the line from `from` to `end` starts with, 0 for none. */
export function numberLength(text: string, from: number, end: number): number {
  const plain = plainNumberLength(text, from, Math.min(end, from + NUMBER_CHARS))
  if (plain !== UNSURE) return plain
  if (end - from > NUMBER_CHARS) return LINE_NUMBER.exec(text.slice(from, from + NUMBER_CHARS))?.[0].length ?? 0
  LINE_NUMBER_IN_PLACE.lastIndex = from
  return LINE_NUMBER_IN_PLACE.test(text) ? LINE_NUMBER_IN_PLACE.lastIndex - from : 0
}

/** What {@link plainNumberLength} answers for a line it leaves to the pattern. */
const UNSURE = -1

/**
 * The length of the line number the line from `from` starts with as {@link LINE_NUMBER} reads it, read up to `limit`,
 * without the pattern for nearly every line a lookup shows: a file's line with its number (`  12\t`, `12:`, `7- `),
 * a line of white space then no digit (indented code: 0), and a line whose first run of characters holds no `:` or `-`
 * before a digit (0). {@link UNSURE} for the rest, which the pattern then reads: `Line 12:`, `path:12:`, a character
 * beyond ASCII (which may be white space), a number running to `limit`.
 */
function plainNumberLength(text: string, from: number, limit: number): number {
  let at = from
  while (at < limit && isAsciiSpace(text.charCodeAt(at))) at++
  if (at === limit) return 0
  const first = text.charCodeAt(at)
  if (first >= 0x80 || first === 0x4c) return UNSURE
  // No digit after the white space: no number, unless the line starts as a `path:12:` does (no white space first).
  if (!isDigit(first)) return at > from ? 0 : mayStartPath(text, from, limit) ? UNSURE : 0
  let end = at + 1
  while (end < limit && isDigit(text.charCodeAt(end))) end++
  if (end === limit) return UNSURE
  const next = text.charCodeAt(end)
  if (next === 0x3a || next === 9) return end + 1 - from
  if (next === 0x2d) {
    if (end + 1 === limit) return UNSURE
    const after = text.charCodeAt(end + 1)
    if (isAsciiSpace(after)) return end + 1 - from
    if (after >= 0x80) return UNSURE
  }
  // Digits not followed as a number is: none, unless the line starts where a `path:12:` can.
  return at > from ? 0 : UNSURE
}

/** Whether a character is an ASCII digit, as `\d` reads one. */
function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39
}

/**
 * Whether the line from `from` (read up to `limit`) can start as a `path:12:` does: its first run of characters that
 * are neither white space nor `:` holds a `:` or `-` followed by a digit, or a character beyond ASCII (which may be
 * white space) leaves it to the pattern.
 */
function mayStartPath(text: string, from: number, limit: number): boolean {
  for (let at = from; at < limit; at++) {
    const code = text.charCodeAt(at)
    if (code >= 0x80) return true
    if (code === 0x3a || code === 0x2d) {
      if (at > from && isDigit(text.charCodeAt(at + 1))) return true
      if (code === 0x3a) return false
    } else if (isAsciiSpace(code)) {
      return false
    }
  }
  return false
}

/** Whether a character is ASCII white space other than a line break, as `\s` reads it. */
function isAsciiSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 11 || code === 12 || code === 13
}

/** Whether a character is trimmed from a line's content: a space, a tab, or a carriage return. */
function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 13
}
