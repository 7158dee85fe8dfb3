/**
 * A response that repeats itself while it streams: the tail of the text one unit repeated exactly, at least `copies`
 * times over at least `chars` characters. Exact repetition over a long stretch is what a degenerate loop produces and
 * real output rarely does. Work and memory stay bounded whatever the response's length (a window, a look every
 * `every` characters, a Z-array past a budget).
 * Design: docs/design.md#responses
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
  const { chars, copies, maxUnit, every } = options
  const window = Math.max(chars, copies * maxUnit)
  // Each character is written twice, `window` apart, so that the last `window` of them always lie side by side:
  // they end just before `end()`, and a look reads them with no wrapping around.
  const ring = new Uint16Array(2 * window)
  // The window read backwards, and its Z-array, for a look that falls back on them: made at the first such look (most
  // responses have none), then kept to spare the allocation.
  let reversed: Uint16Array | undefined
  let z: Int32Array | undefined
  let seen = 0
  let sinceLook = 0
  const end = (): number => seen % window + window

  /** The shortest unit that repeats enough at the tail: `aaaa` is `a` four times, not `aa` twice. */
  function look(): Repetition | undefined {
    const length = Math.min(seen, window)
    if (length < chars) return undefined
    const last = end() - 1
    const longest = Math.min(maxUnit, Math.floor(length / copies))
    let budget = 2 * window
    for (let period = 1; period <= longest; period++) {
      // How far back the text equals itself `period` characters earlier; enough of it makes the repetition.
      const needed = Math.max(chars, copies * period) - period
      let match = 0
      while (match < needed && ring[last - match] === ring[last - match - period]) match++
      if (match >= needed) return found(period, span(period, match, length))
      budget -= match + 1
      if (budget < 0) return lookByZArray(length, longest)
    }
    return undefined
  }

  /** The same answer as {@link look}, from the Z-array of the window read backwards: z[p] + p is the span of period p. */
  function lookByZArray(length: number, longest: number): Repetition | undefined {
    const last = end() - 1
    reversed ??= new Uint16Array(window)
    z ??= new Int32Array(window)
    for (let i = 0; i < length; i++) reversed[i] = ring[last - i]!
    zArray(reversed, length, z)
    for (let period = 1; period <= longest; period++) {
      const repeats = z[period]! + period
      if (repeats >= chars && repeats >= copies * period) return found(period, repeats)
    }
    return undefined
  }

  /** The whole span of the repetition with `period`, of which `match` + `period` characters are known to repeat. */
  function span(period: number, match: number, length: number): number {
    const last = end() - 1
    while (match < length - period && ring[last - match] === ring[last - match - period]) match++
    return match + period
  }

  function found(period: number, repeats: number): Repetition {
    return { unit: unitAt(period, repeats), copies: Math.floor(repeats / period), span: repeats, seen }
  }

  /**
   * The unit as the model first wrote it: `period` characters from where the repetition begins. That start can fall
   * a few characters early, inside the text before it (`… run. I'll kill the stale process now.` repeats from the
   * `. ` of `run. `), so unless it follows a space or a line's end, the unit is turned to begin after its first line
   * break, else its first sentence end, else its first space: `I'll kill the stale process now.`, not
   * `. I'll kill the stale process now`.
   */
  function unitAt(period: number, repeats: number): string {
    const from = end() - repeats
    let text = ''
    for (let at = from; at < from + period; at++) text += String.fromCharCode(ring[at]!)
    const before = seen === repeats ? '\n' : repeats < window ? String.fromCharCode(ring[from - 1]!) : ''
    if (/\s/.test(before)) return text
    const edge = [/\n+/, /[.!?]\s+|[。！？]+/, /\s+/].map(pattern => pattern.exec(text)).find(match => match != null)
    const at = edge == null ? 0 : edge.index + edge[0].length
    return at >= text.length ? text : text.slice(at) + text.slice(0, at)
  }

  return {
    push(text) {
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i)
        const at = seen % window
        ring[at] = code
        ring[at + window] = code
        seen++
        if (++sinceLook < every) continue
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
