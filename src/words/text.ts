/**
 * Cutting text to a width, for every place that shows text in a bounded space: a notice's quotes (with a marker saying
 * how much was left out), a report's column, the demo's transcript.
 * @module dsh-brake/words/text
 */

/** The first `max` UTF-16 code units of `text`, one fewer when that would split a surrogate pair. */
export function cut(text: string, max: number): string {
  const end = Math.max(0, Math.min(max, text.length))
  const last = text.charCodeAt(end - 1)
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? end - 1 : end)
}

/** `text` in at most `width` characters: as it is when it fits, else cut with an ellipsis as the last character. */
export function fit(text: string, width: number): string {
  return text.length <= width ? text : `${cut(text, width - 1)}…`
}

/** `text` cut to `max` characters with a marker saying how much was left out; never splits a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const head = cut(text, max)
  return `${head}… (+${text.length - head.length} more chars)`
}

/**
 * A block's beginning on one line (runs of whitespace folded), cut to `max`; `total` is the whole block's length. A
 * block of nothing but white space is shown by its characters (`\n\n`, `␠`), so that it reads as what it is rather
 * than as nothing.
 */
export function oneLine(head: string, max: number, total: number): string {
  if (head !== '' && head.trim() === '') return visible(head, max)
  const folded = head.replace(/\s+/g, ' ').trim()
  if (folded.length <= max && head.length >= total) return folded
  return `${cut(folded, max)}…`
}

/** How each white-space character is shown when a block is nothing else: its escape, a space as the symbol for one. */
const WHITE_SPACE: Readonly<Record<string, string>> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', ' ': '␠' }

/** White space shown character by character, within `max` (the ellipsis included), never half a character's form. */
function visible(space: string, max: number): string {
  // White space is all single UTF-16 units: the text read unit by unit splits no character.
  const forms = Array.from({ length: space.length }, (_, at) => WHITE_SPACE[space[at]!] ?? JSON.stringify(space[at]).slice(1, -1))
  if (forms.join('').length <= max) return forms.join('')
  let shown = ''
  for (const form of forms) {
    if (shown.length + form.length > max - 1) break
    shown += form
  }
  return `${shown}…`
}
