/**
 * The scans a look makes over the window of folded text (read backwards from its last character, `last`, in the
 * watch's ring, where the window's characters lie side by side): for each period, how far back the text equals itself
 * that many characters earlier, exactly or through small glitches; and, for a look that runs past its budget, every
 * period's span at once from the Z-array of the window read backwards. Plain functions over a typed array and numbers,
 * so that they compile to tight loops: they are the watch's cost.
 * Design: docs/design.md#responses
 * @module dsh-brake/core/stream/period-scan
 */
import { GLITCH_COPIES } from './quotes.js'
import { EDITED_UNIT, threshold, type RunawayOptions } from './runaway-rules.js'

/** Where a look's scan over the periods is: the period it reached, what matched there, and its budget left. */
export interface Scan {
  period: number
  match: number
  budget: number
}

/** What a look has weighed: how many more candidates it may, and the periods it passed over. */
export interface Weighing {
  left: number
  readonly passed: number[]
}

/**
 * The scan of a look, from the period after `scan.period`: the next period whose text, read back from `last`, equals
 * itself that many characters earlier for as long as the rule needs (`exact`), or for 8 copies of a unit short enough
 * to follow through glitches (`glitches`); `none` past the longest, `budget` once the comparisons run past the budget.
 */
export function nextCandidate(
  ring: Uint16Array, last: number, longest: number, options: RunawayOptions, passed: readonly number[], scan: Scan,
): 'exact' | 'glitches' | 'none' | 'budget' {
  const { chars, copies, minCopies, minChars, edits } = options
  for (let period = scan.period + 1; period <= longest; period++) {
    if (passed.length > 0 && passedOver(passed, period)) continue
    // How far back the text equals itself `period` characters earlier; enough of it makes a candidate.
    const want = threshold(period, minChars, copies, chars, minCopies) - period
    let match = 0
    while (match < want && ring[last - match] === ring[last - match - period]) match++
    scan.period = period
    scan.match = match
    scan.budget -= match + 1
    if (match >= want) return 'exact'
    if (match >= GLITCH_COPIES * period && edits > 0 && period <= EDITED_UNIT) return 'glitches'
    if (scan.budget < 0) return 'budget'
  }
  return 'none'
}

/** Whether `period` is a multiple of one the look passed over (a loop, not a callback: it runs for every period). */
export function passedOver(passed: readonly number[], period: number): boolean {
  for (const shorter of passed) if (period % shorter === 0) return true
  return false
}

/** The whole span of the repetition with `period`, of which `match` + `period` characters are known to repeat. */
export function span(ring: Uint16Array, last: number, period: number, match: number, length: number): number {
  while (match < length - period && ring[last - match] === ring[last - match - period]) match++
  return match + period
}

/**
 * The span of the repetition with `period` through small glitches, from `match` characters known to repeat exactly
 * at the tail: past each place where the text stops equalling itself `period` characters back, the first place
 * within `period` + 2 characters where it does again for a whole unit, if that unit is the same one turned (a
 * dropped letter shifts the copies before it). At most one glitch for every {@link GLITCH_COPIES} copies, and
 * `edits` in all; `cost` is the comparisons made, for the look's budget.
 */
export function spanThroughGlitches(
  ring: Uint16Array, last: number, period: number, match: number, length: number, edits: number,
): { repeats: number; cost: number } {
  const unit = (from: number): string => {
    let text = ''
    for (let i = period - 1; i >= 0; i--) text += String.fromCharCode(ring[last - from - i]!)
    return text
  }
  const tail = unit(0)
  let reached = match
  let cost = 0
  for (let glitch = 0; glitch < edits && (glitch + 1) * GLITCH_COPIES * period <= reached; glitch++) {
    let resumed = -1
    for (let skip = 1; skip <= period + 2 && resumed < 0; skip++) {
      const from = reached + skip
      if (from + 2 * period > length) break
      let k = 0
      while (k < period && ring[last - from - k] === ring[last - from - k - period]) k++
      cost += k + 1
      if (k === period) resumed = from
    }
    if (resumed < 0 || !(tail + tail).includes(unit(resumed))) break
    let next = resumed + period
    while (next < length - period && ring[last - next] === ring[last - next - period]) next++
    cost += next - resumed
    reached = next
  }
  return { repeats: reached + period, cost }
}

/** Fill `z` with the Z-array of the first `length` units of `text`: z[i] is the longest common prefix of it and text[i..]. */
export function zArray(text: Uint16Array, length: number, z: Int32Array): void {
  z[0] = length
  let left = 0
  let right = 0
  for (let i = 1; i < length; i++) {
    let match = i < right ? Math.min(right - i, z[i - left]!) : 0
    while (i + match < length && text[match] === text[i + match]) match++
    z[i] = match
    if (i + match > right) {
      left = i
      right = i + match
    }
  }
}
