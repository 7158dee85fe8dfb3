/**
 * Results as the detectors compare them. Two results are the same when their raw text is, or when their normalized
 * text is (volatile fragments removed, see `normalize.ts`). Normalizing costs more than anything else the brake does
 * per call, and almost every result is never compared with anything, so it is done lazily: only when a repeat of
 * the same call brings a result whose raw text differs. For that, the raw text of the most recent results is kept a
 * while (a bounded window); a result that left the window without ever being normalized compares by its raw text
 * only, so a far-apart repeat whose output differs only in a timestamp is taken for a change (README, Known
 * Limitations).
 * @module dsh-brake/core/results
 */
import { fingerprint } from './fingerprint.js'
import { normalizeResult } from './normalize.js'

/** One call's result. */
export interface ResultRef {
  /** The raw text's key: the text itself when short, its fingerprint otherwise. */
  readonly raw: string
  /** The normalized text's key, once computed. */
  norm?: string
  /** The raw text, while the result is in its agent's recent window. */
  text?: string
}

/** Texts up to this length are their own key: hashing them would cost more than it saves. */
const LITERAL_CHARS = 64

/** The key of a text: the text itself when short (prefixed `=`), its fingerprint otherwise (prefixed `#`). */
export function keyOf(text: string): string {
  return text.length <= LITERAL_CHARS ? `=${text}` : `#${fingerprint(text)}`
}

/** A result for `text`, not yet normalized. */
export function resultOf(text: string): ResultRef {
  return { raw: keyOf(text), text }
}

/** Stands for every refused attempt: refusals repeat each other, whatever their wording. */
export const REFUSED: ResultRef = Object.freeze({ raw: '!refused', norm: '!refused' })

function normOf(result: ResultRef): string | undefined {
  if (result.norm === undefined && result.text !== undefined) result.norm = keyOf(normalizeResult(result.text))
  return result.norm
}

/** Whether two results are the same, raw or normalized. */
export function sameResult(a: ResultRef, b: ResultRef): boolean {
  if (a.raw === b.raw) return true
  const left = normOf(a)
  return left !== undefined && left === normOf(b)
}

/** The window of recent results whose text is kept for a later normalization, bounded by total characters. */
export interface RecentResults {
  /** Keep `result`'s text for a while; older texts beyond the bound are let go. */
  remember(result: ResultRef): void
  clear(): void
}

/** Create a window holding at most `maxChars` characters of result text. */
export function createRecentResults(maxChars: number): RecentResults {
  const queue: ResultRef[] = []
  let head = 0
  let chars = 0
  return {
    remember(result) {
      const text = result.text
      if (text === undefined) return
      if (text.length > maxChars) {
        // Too large to keep: normalize it now, while the text is at hand.
        normOf(result)
        delete result.text
        return
      }
      queue.push(result)
      chars += text.length
      while (chars > maxChars) {
        const old = queue[head++]!
        chars -= old.text?.length ?? 0
        delete old.text
      }
      if (head > 1024 && head * 2 > queue.length) {
        queue.splice(0, head)
        head = 0
      }
    },
    clear() {
      for (let i = head; i < queue.length; i++) delete queue[i]!.text
      queue.length = 0
      head = 0
      chars = 0
    },
  }
}
