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

/** Look-ups in the folded text `request()` makes, made on the first look-up and kept. */
export function createQuotedRun(request: () => string): QuotedRun {
  let text: string | undefined
  return (sample, period) => {
    text ??= request()
    const at = text.indexOf(sample)
    if (at < 0) return 0
    // Grow the match both ways while the text equals itself `period` characters along.
    let from = at
    let to = at + sample.length
    while (from > 0 && text.charCodeAt(from - 1) === text.charCodeAt(from - 1 + period)) from--
    while (to < text.length && text.charCodeAt(to) === text.charCodeAt(to - period)) to++
    return to - from
  }
}
