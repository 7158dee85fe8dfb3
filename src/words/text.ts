/**
 * Cutting text to a width, for every place that shows text in a bounded space: a notice's quotes (messages.ts adds its
 * own marker), a report's column, the demo's transcript.
 * @module dsh-brake/text
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
