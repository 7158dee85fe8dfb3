/**
 * A span of time in words, as a notice names a window: `500 ms`, `2 min`, `90 s`.
 * @module dsh-brake/words/duration
 */

/** `ms` milliseconds in the largest unit that says it plainly: ms below a second, whole minutes, else seconds. */
export function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`
  if (ms % 60_000 === 0) return `${ms / 60_000} min`
  return `${Math.round(ms / 1000)} s`
}
