/**
 * What a repeated unit is, read from the unit itself (folded: white space runs as one, digit runs as `0`): text, which
 * a runaway repeats; a run of symbols or of one character within a line (`=====`, `*****`, a rule of dashes, a table's
 * border or empty cells), which real text draws in long lines; or data, which repeats legitimately however long within
 * a line (base64 of an image with a run of one pixel value, hex, CSV fields of equal values) and, as whole lines, up
 * to far more copies than text (a table's rows, a diagram's, a column of numbers).
 * Design: docs/design.md#responses
 * @module dsh-brake/core/stream/unit-kind
 */

/** How a repeated unit counts: text by the rule, symbols only past the character threshold, data hardly ever. */
export type UnitKind = 'text' | 'symbols' | 'data'

/** Letters or digits: a unit with none is symbols. */
const WORDLIKE = /[\p{L}\p{N}]/u
/** The base64 and hex alphabets, with no white space. */
const ENCODED = /^[A-Za-z0-9+/=]+$/
/** What an encoding has and a word repeated rarely does: a digit or sign, or letters of both cases. */
const ENCODED_MARK = /[0-9+/=]|[a-z].*[A-Z]|[A-Z].*[a-z]/
/** Field separators of CSV, TSV and tables. */
const SEPARATOR = /[,;|\t]/
/** A field that is a value rather than words: empty, quoted, a number (folded to `0`), or a null of some spelling. */
const VALUE_FIELD = /^(?:|"[^"]*"|'[^']*'|[-+.\w/:]*0[-+.\w/:]*|null|NULL|Null|None|nil|NaN|nan|N\/A|n\/a|NA|true|false|TRUE|FALSE|-+|:?-+:?)$/
/** Numbers alone (folded to `0`), with their points and signs. */
const NUMBERS = /^[-+.]*0[-+.0]*$/
/** The characters a table's borders are drawn with. */
const BORDER = /^[|+\-:=\s]+$/

/** The kind of `unit`, a repeated unit as folded text. */
export function unitKind(unit: string): UnitKind {
  const bare = unit.replace(/\s+/g, '')
  if (bare === '') return 'symbols'
  // A table's border or empty cells: as lines, its rows (data); within a line, a rule drawn long.
  if (BORDER.test(bare) && /[|+]/.test(bare)) return unit.includes('\n') ? 'data' : 'symbols'
  // A column of numbers, or rows of them (a matrix), is data; lines of symbols alone (`}` on every line) are a runaway
  // like any text: real rules and banners are one line each.
  if (unit.includes('\n') && NUMBERS.test(bare)) return 'data'
  if (!unit.includes('\n') && (!WORDLIKE.test(bare) || isOneCharacter(bare))) return 'symbols'
  // Numbers within a line: a vector's values, a matrix's row (`0.0 0.0 0.0`), as CSV fields are.
  if (NUMBERS.test(bare)) return 'data'
  if (isEncoded(unit)) return 'data'
  if (isFields(unit)) return 'data'
  return 'text'
}

/** Whether `text` reads as base64 or hex: their alphabet only, and a digit, a sign or both cases of letters in it. */
export function isEncoded(text: string): boolean {
  return ENCODED.test(text) && ENCODED_MARK.test(text)
}

/** `aaaa`, `0000`: one character over and over, whatever the period found. */
function isOneCharacter(bare: string): boolean {
  for (let i = 1; i < bare.length; i++) if (bare[i] !== bare[0]) return false
  return true
}

/**
 * Fields of values: within a row (`0,`, `"N/A",`, `NULL;`), or whole rows of at least three fields each (`0,0,0\n`).
 * `Yes,` on its own line and `court, ` are words, not fields.
 */
function isFields(found: string): boolean {
  if (!SEPARATOR.test(found)) return false
  // A unit is found turned any way (`A","N/`): read it from just after a line's end, or else a separator.
  const rows = found.includes('\n')
  const at = (rows ? found.indexOf('\n') : found.search(SEPARATOR)) + 1
  const unit = found.slice(at) + found.slice(0, at)
  const lines = unit.split('\n').filter(line => line.trim() !== '')
  if (lines.length === 0) return false
  return lines.every((line) => {
    const fields = line.split(SEPARATOR).map(field => field.trim())
    return (!rows || fields.length >= 3) && fields.every(field => VALUE_FIELD.test(field))
  })
}

/**
 * Whether a unit whose copies differ only in their numbers is text that counts (`Retrying (attempt 7).`, a chat
 * template's counter) rather than code or data whose numbers are its content: a test table's rows, an array's
 * objects, CSS rules, a YAML list, a Markdown table. Brackets, quotes and assignments mark code and data.
 */
export function numbersCarryNoContent(unit: string): boolean {
  if (/[{}[\]=;"']/.test(unit)) return false
  return unit.split('\n').every(line => !/^\s*\|/.test(line) && !/^\s*(?:- )?[\w.-]+:(?:\s|$)/.test(line))
}
