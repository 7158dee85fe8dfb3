/**
 * Repetition a response copies from its own request: a log with 98 identical lines that a tool returned, a refrain the
 * person pasted. Quoting it is work, not a runaway, up to as long as the run it quotes. Looked up only when the watch
 * has a candidate, in the request's text folded the way the watch folds (made once, at the first look-up).
 * Design: docs/design.md#responses
 * @module dsh-brake/core/detectors/repetition-quotes
 */

/**
 * How long a run of the same repetition the request holds: the folded characters around the first place `sample`
 * occurs that repeat with `period`, or 0 when it does not occur. `sample` is the tail of a candidate repetition.
 */
export type QuotedRun = (sample: string, period: number) => number

/** Copies of a unit for each glitch a run in the request is followed through, at least (as the watch follows one). */
const GLITCH_COPIES = 8

/** Look-ups in the folded text `request()` makes, made on the first look-up and kept. */
export function createQuotedRun(request: () => string): QuotedRun {
  let text: string | undefined
  return (sample, period) => {
    text ??= request()
    const at = text.indexOf(sample)
    if (at < 0) return 0
    // Grow the match both ways, a copy of the unit at a time, through the glitches the watch follows: a copy found
    // again within twice the unit's length and 2 characters further on (a letter dropped, changed or added between,
    // a copy cut short: the watch finds the text repeating again as far from where it stopped).
    let from = at
    let to = at + sample.length
    let copies = Math.floor(sample.length / period)
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
    return to - from
  }
}
