/**
 * Results as the detectors compare them: the same when their raw text is, or their normalized text is. Normalizing
 * costs more than anything else per call, so it is done lazily, only when a repeat's raw text differs, over a bounded
 * window of recent raw texts; and while both texts are at hand, only the lines where they differ are normalized.
 *
 * A result's normalized fingerprint is then owed: it is made when its text leaves the window, if the result is still
 * some identity's latest (the only result compared again), so that a comparison after that reads what it would have
 * read had the whole text been normalized at once.
 * Design: docs/design.md#progress
 * @module dsh-brake/core/evidence/results
 */
import { fingerprint } from '../tables/fingerprint.js'
import { differsBeyondNormalizing, normalizeResult, sameNormalized } from './normalize.js'

/** One call's result. */
export interface ResultRef {
  /** The raw text's fingerprint. */
  readonly raw: number
  /** The normalized text's fingerprint, once computed. */
  norm: number | undefined
  /** The raw text, while the result is in its agent's recent window. */
  text: string | undefined
  /** Whether a comparison needed the normalized text: its fingerprint is owed when the text goes. */
  owed: boolean
  /** How many tables hold the result as an identity's latest (the call history, the polls): only those compare it again. */
  held: number
}

/** A result for `text`, not yet normalized. */
export function resultOf(text: string): ResultRef {
  // Every field is present from the start and later set to `undefined` rather than deleted: a deleted property turns
  // a V8 object into a dictionary several times its size, and chains keep these objects for a long time.
  return { raw: fingerprint(text), norm: undefined, text, owed: false, held: 0 }
}

/** `result` is now an identity's latest in one more table. Returns it. */
export function hold(result: ResultRef): ResultRef {
  // The two shared results are frozen, and never compared by text.
  if (result.raw >= 0) result.held++
  return result
}

/** `result` is no longer an identity's latest in one table. */
export function release(result: ResultRef): void {
  if (result.raw >= 0) result.held--
}

/**
 * Stands for every refused attempt: refusals repeat each other, whatever their wording. Fingerprints are never
 * negative, so it meets no real result.
 */
export const REFUSED: ResultRef = Object.freeze({ raw: -1, norm: -1, text: undefined, owed: false, held: 0 })

/** What a chain holds before its first result; never compared (a chain of length 0 has nothing to compare). */
export const NO_RESULT: ResultRef = Object.freeze({ raw: -2, norm: -2, text: undefined, owed: false, held: 0 })

function normOf(result: ResultRef): number | undefined {
  if (result.norm === undefined && result.text !== undefined) result.norm = fingerprint(normalizeResult(result.text))
  return result.norm
}

/** Whether two results are the same, raw or normalized. */
export function sameResult(a: ResultRef, b: ResultRef): boolean {
  if (a.raw === b.raw) return true
  if (a.text !== undefined && b.text !== undefined) {
    // Where both texts are at hand and show it, told apart without normalizing either.
    if (differsBeyondNormalizing(a.text, b.text)) return false
    // Otherwise only the lines where they differ are normalized; both fingerprints are owed.
    a.owed = true
    b.owed = true
    return sameNormalized(a.text, b.text)
  }
  const left = normOf(a)
  return left !== undefined && left === normOf(b)
}

/** The window of recent results whose text is kept for a later normalization, bounded by count and characters. */
export interface RecentResults {
  /** Keep `result`'s text for a while; older texts beyond the bound are let go (an owed fingerprint made first). */
  remember(result: ResultRef): void
  /** Let every text go, along with the tables that hold results (nothing owed is made). */
  clear(): void
  /** Results whose text is kept, and their characters. */
  size(): { readonly results: number; readonly chars: number }
}

/** Create a window holding the text of at most `maxResults` results and `maxChars` characters. */
export function createRecentResults(maxResults: number, maxChars: number): RecentResults {
  // A ring of the last `maxResults` results; `oldest` is the next slot to reuse. It is grown as results come, not made
  // full-size up front: most agents remember far fewer results than the bound, and every agent makes a ring.
  const ring: (ResultRef | undefined)[] = []
  let oldest = 0
  let chars = 0
  return {
    remember(result) {
      const text = result.text
      if (text === undefined) return
      if (text.length > maxChars) {
        // Too large to keep: normalize it now, while the text is at hand.
        normOf(result)
        result.text = undefined
        return
      }
      if (oldest === ring.length) ring.push(result)
      else {
        chars -= forget(ring, oldest, true)
        ring[oldest] = result
      }
      chars += text.length
      oldest = (oldest + 1) % maxResults
      // Over the character bound: let the oldest texts go first (the ring, not yet full, starts at its first slot).
      for (let slot = oldest % ring.length; chars > maxChars; slot = (slot + 1) % ring.length) chars -= forget(ring, slot, true)
    },
    clear() {
      // Cleared with the tables that hold results: nothing compares these again, so nothing is owed.
      for (let slot = 0; slot < ring.length; slot++) chars -= forget(ring, slot, false)
      ring.length = 0
      oldest = 0
    },
    size: () => ({ results: ring.filter(result => result !== undefined).length, chars }),
  }
}

/**
 * Let the text of the result at `slot` of `ring` go (its owed fingerprint made first when `settle`); returns the
 * characters let go. A function of the module, not a closure: it is made once, not for every agent.
 */
function forget(ring: (ResultRef | undefined)[], slot: number, settle: boolean): number {
  const old = ring[slot]
  if (old === undefined) return 0
  if (settle && old.owed && old.held > 0) normOf(old)
  const length = old.text?.length ?? 0
  old.text = undefined
  ring[slot] = undefined
  return length
}
