/**
 * Repetition a response copies from its own request: a log with 98 identical lines that a tool returned, a refrain the
 * person pasted. Quoting it is work, not a runaway, up to as long as the run it quotes. Looked up only when the watch
 * has a candidate, in the request's text folded the way the watch folds (made once, at the first look-up).
 * Design: docs/design.md#responses
 * @module dsh-brake/core/stream/quotes
 */

/**
 * How long a run of the same repetition the request holds: the folded characters around the places `sample` occurs
 * that repeat with `period`, the longest of them, or 0 when it does not occur. `sample` is the tail of a candidate
 * repetition.
 */
export type QuotedRun = (sample: string, period: number) => number

/** Copies of a unit for each glitch tolerated in them, at least (in the response, and in the request it quotes). */
export const GLITCH_COPIES = 8

/**
 * The text a response may quote, from its sources newest first (what the person wrote, what tools returned): the
 * latest `max` characters, oldest first, the sources kept apart by a blank line so that two never join into a
 * repetition neither holds.
 */
export function quotableText(newestFirst: Iterable<string>, max: number): string {
  const texts: string[] = []
  let length = 0
  for (const text of newestFirst) {
    if (length >= max) break
    texts.push(text.slice(-(max - length)))
    length += text.length
  }
  return texts.reverse().join('\n\n')
}

/** Look-ups in the folded text `request()` makes, made on the first look-up and kept. */
export function createQuotedRun(request: () => string): QuotedRun {
  let text: string | undefined
  return (sample, period) => {
    text ??= request()
    // The longest run the sample occurs in: a tool's output often shows a run twice, cut short where its head ends and
    // whole in its tail, and a response quoting the output quotes both. Each search starts past the run just grown, so
    // the request is read about once.
    let longest = 0
    for (let at = text.indexOf(sample); at >= 0;) {
      const { from, to } = runAround(text, at, sample.length, period)
      longest = Math.max(longest, to - from)
      at = text.indexOf(sample, to)
    }
    return longest
  }
}

/** The run that the `length` characters at `at` in `text` lie in, repeating with `period`. */
function runAround(text: string, at: number, length: number, period: number): { from: number; to: number } {
  // Grow the match both ways, a copy of the unit at a time, through the glitches the watch follows: a copy found
  // again within twice the unit's length and 2 characters further on (a letter dropped, changed or added between,
  // a copy cut short: the watch finds the text repeating again as far from where it stopped).
  let from = at
  let to = at + length
  let copies = Math.floor(length / period)
  let glitches = 0
  for (;;) {
    const copy = text.slice(to - period, to)
    const next = text.indexOf(copy, to)
    const gap = next - to
    if (next < 0 || gap > 2 * period + 2 || (gap > 0 && (glitches + 1) * GLITCH_COPIES > copies)) break
    if (gap > 0) glitches++
    to = next + period
    copies++
  }
  // A run that opens the request has no copy before it: stop there (`lastIndexOf` from before the start would find
  // the run's own first copy again, and again).
  while (from >= period) {
    const copy = text.slice(from, from + period)
    const previous = text.lastIndexOf(copy, from - period)
    const gap = from - period - previous
    if (previous < 0 || gap > 2 * period + 2 || (gap > 0 && (glitches + 1) * GLITCH_COPIES > copies)) break
    if (gap > 0) glitches++
    from = previous
    copies++
  }
  return { from, to }
}
