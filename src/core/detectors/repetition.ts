/**
 * A response that repeats itself while it streams: the same token, line, sentence or passage, back to back, on and
 * on. Only exact repetition counts, and only a lot of it: the tail of the text must be one unit repeated at least
 * `copies` times and spanning at least `chars` characters. Real output is rarely exactly periodic over a long stretch
 * (a test table's rows differ in their values, a list in its numbers, a log in its times), while a model that has
 * fallen into repeating itself keeps doing so until the output cap: waiting for a few thousand characters costs a
 * few percent of that, and makes a legitimate repeat (a refrain asked for, a short stack trace of one frame) too short
 * to count.
 *
 * Work and memory are bounded whatever the response's length: the detector keeps a ring of the last `window`
 * characters (UTF-16 code units), and every `every` characters it looks at the window once. Read backwards, the
 * window's Z-array gives, for every period p at once, how far back the text repeats with period p: the tail is
 * p-periodic over Z[p] + p characters. So a look costs O(window), and each character O(window / every).
 * @module dsh-brake/core/detectors/repetition
 */

/** Thresholds of the repetition detector. */
export interface RepetitionOptions {
  /** Characters the repetition must span at least. */
  readonly chars: number
  /** Copies of the repeated unit it must hold at least. */
  readonly copies: number
  /** The longest unit looked for, in characters. */
  readonly maxUnit: number
  /** Characters between two looks at the window. */
  readonly every: number
}

/** The repetition found at the tail of a text. */
export interface Repetition {
  /** The repeated unit, turned to start where a word or line does when it can (so it reads as written). */
  readonly unit: string
  /** Back-to-back copies of it at the tail, whole ones. */
  readonly copies: number
  /** Characters of the tail that repeat, at least `copies` × the unit's length. */
  readonly span: number
  /** Characters of the text seen so far. */
  readonly seen: number
}

/** One text being watched as it streams. */
export interface RepetitionWatch {
  /** Feed the next piece of the text; returns the repetition at its tail when it has grown long enough. */
  push(text: string): Repetition | undefined
  /** Code units kept now (for the bound checks in the tests). */
  readonly size: number
}

/** Watch one text (one block of one response) for repetition. */
export function createRepetitionWatch(options: RepetitionOptions): RepetitionWatch {
  const window = Math.max(options.chars, options.copies * options.maxUnit)
  const ring = new Uint16Array(window)
  // The window read backwards, and its Z-array: made again at each look, kept to spare the allocation.
  const reversed = new Uint16Array(window)
  const z = new Int32Array(window)
  let seen = 0
  let sinceLook = 0

  function look(): Repetition | undefined {
    const length = Math.min(seen, window)
    if (length < options.chars) return undefined
    for (let i = 0; i < length; i++) reversed[i] = ring[(seen - 1 - i) % window]!
    zArray(reversed, length, z)
    // The shortest unit that repeats enough: `aaaa` is `a` four times, not `aa` twice.
    const longest = Math.min(options.maxUnit, Math.floor(length / options.copies))
    for (let period = 1; period <= longest; period++) {
      const span = z[period]! + period
      if (span < options.chars || span < options.copies * period) continue
      return { unit: unitAt(period, span), copies: Math.floor(span / period), span, seen }
    }
    return undefined
  }

  /**
   * The unit as the model first wrote it: `period` characters from where the repetition begins. That start can fall
   * a few characters early, inside the text before it (`… run. I'll kill the stale process now.` repeats from the
   * `. ` of `run. `), so unless it follows a space or a line's end, the unit is turned to begin after its first line
   * break, else its first sentence end, else its first space: `I'll kill the stale process now.`, not
   * `. I'll kill the stale process now`.
   */
  function unitAt(period: number, span: number): string {
    const from = seen - span
    let text = ''
    for (let at = from; at < from + period; at++) text += String.fromCharCode(ring[at % window]!)
    const before = from === 0 ? '\n' : from > seen - window ? String.fromCharCode(ring[(from - 1) % window]!) : ''
    if (/\s/.test(before)) return text
    const edge = [/\n+/, /[.!?]\s+|[。！？]+/, /\s+/].map(pattern => pattern.exec(text)).find(match => match != null)
    const at = edge == null ? 0 : edge.index + edge[0].length
    return at >= text.length ? text : text.slice(at) + text.slice(0, at)
  }

  return {
    push(text) {
      for (let i = 0; i < text.length; i++) {
        ring[seen % window] = text.charCodeAt(i)
        seen++
        if (++sinceLook < options.every) continue
        sinceLook = 0
        const found = look()
        if (found !== undefined) return found
      }
      return undefined
    },
    get size() {
      return Math.min(seen, window)
    },
  }
}

/** Fill `z` with the Z-array of the first `length` units of `text`: z[i] is the longest common prefix of it and text[i..]. */
function zArray(text: Uint16Array, length: number, z: Int32Array): void {
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
