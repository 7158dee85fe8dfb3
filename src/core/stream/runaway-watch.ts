/**
 * A response that repeats itself while it streams: the tail of the text one unit repeated, on its folded text (white
 * space runs as one, digit runs as `0`: see `fold.ts`). It counts at `copies` copies over `minChars` characters, or at
 * `chars` characters over `minCopies` copies, whichever comes first; a run of symbols or of one character needs
 * `chars`, data never counts (`unit-kind.ts`); copies whose numbers change count only for text outside code (a
 * counter, not a table's values); and a repetition the request itself holds is a quote, spared up to the length it has
 * there (`quotes.ts`). Work and memory stay bounded whatever the response's length (a window, a look every `every`
 * characters, a Z-array past a budget).
 * Design: docs/design.md#responses
 * @module dsh-brake/core/stream/runaway-watch
 */
import { APPEND, Folder, REWRITE, SKIP } from './fold.js'
import type { QuotedRun } from './quotes.js'
import { isEncoded, numbersCarryNoContent, unitKind } from './unit-kind.js'

/** Thresholds of the repetition detector. */
export interface RepetitionOptions {
  /** Characters of repetition that count from `minCopies` copies on; all a run of symbols or one character counts at. */
  readonly chars: number
  /** Copies that count from `minChars` characters on. */
  readonly copies: number
  /** The fewest copies any repetition needs. */
  readonly minCopies: number
  /** The fewest characters any repetition needs. */
  readonly minChars: number
  /** The longest unit looked for, in characters. */
  readonly maxUnit: number
  /** Characters between two looks at the window. */
  readonly every: number
  /**
   * Glitches tolerated in a repetition of a short unit (a character dropped, changed or added, a copy cut short), one
   * for every 8 copies at most; 0 for exact repetition only.
   */
  readonly edits: number
}

/** The repetition found at the tail of a text. */
export interface Repetition {
  /**
   * The repeated unit as its last copy streamed (folded when that copy no longer is at hand), turned to start where a
   * word or line does when it can (so it reads as written).
   */
  readonly unit: string
  /** Back-to-back copies of it at the tail, whole ones. */
  readonly copies: number
  /** Folded characters of the tail that repeat, at least `copies` × the unit's length. */
  readonly span: number
  /** Characters of the text seen so far, as streamed. */
  readonly seen: number
}

/** One text being watched as it streams. */
export interface RepetitionWatch {
  /** Feed the next piece of the text; returns the repetition at its tail when it has grown long enough. */
  push(text: string): Repetition | undefined
  /** Folded characters kept now (for the bound checks in the tests). */
  readonly size: number
}

/** Candidates a look weighs at most (each costs its unit's length, and a quote look-up): the rest wait for the next look. */
const WEIGHED = 8

/** Characters before a run of one character read to tell whether it goes on a base64 or hex token. */
const ENCODED_TOKEN = 64

/** Longest units of the streamed text kept to quote a unit as written (white space folded away can make it longer). */
const RAW_UNITS = 2

/** The longest unit a repetition is followed through glitches for (the search for where it resumes costs its square). */
const EDITED_UNIT = 64

/** Copies of a unit for each glitch tolerated in them, at least. */
const GLITCH_COPIES = 8

/** Units weighed for sparing, remembered at most (each with the length it is spared up to). */
const SPARED = 4

/**
 * The memory a watch writes into, tens of KB: its window of folded characters, beside each the value of its digits and
 * where it began, and the tail of the text as streamed; made for one set of options. Every watch makes its own unless
 * it is handed one: texts watched one after another (a session's responses, replayed) can share one, as a watch
 * clears it when it starts. Its parts lie in one buffer: making memory outside the heap costs microseconds per
 * buffer, several times what the watch then spends on a response of a few hundred characters.
 */
export interface WatchMemory {
  /**
   * Each folded character is written twice, `window` apart, so that the last `window` of them always lie side by
   * side: they end just before the watch's `end()`, and a look reads them with no wrapping around.
   */
  readonly ring: Uint16Array
  /** Beside each folded character (once), the value of the digits it folded (0 for other characters). */
  readonly values: Uint16Array
  /**
   * Beside each folded character, where it began in the text as streamed; and the streamed text's tail, to quote a
   * unit as the model wrote it. (These two are read at a few places, by their index modulo the window.)
   */
  readonly starts: Uint32Array
  readonly raw: Uint16Array
  /** The whole buffer, as bytes: what a watch clears when it starts. */
  readonly bytes: Uint8Array
  /**
   * The window read backwards, and its Z-array, for a look that falls back on them: made at the first such look (most
   * responses have none), then kept to spare the allocation. Written in full before each read.
   */
  reversed: Uint16Array | undefined
  z: Int32Array | undefined
}

/** The folded characters a watch under `options` keeps: past `chars`, the characters rule comes first for every unit. */
function windowOf({ chars, minCopies, maxUnit }: RepetitionOptions): number {
  return Math.max(chars, minCopies * maxUnit)
}

/** Memory for watches under `options`, to hand to each of a series of them (see {@link WatchMemory}). */
export function createWatchMemory(options: RepetitionOptions): WatchMemory {
  const window = windowOf(options)
  const rawLength = RAW_UNITS * options.maxUnit
  // The 32-bit column first, so that it is aligned whatever the window's length; the 16-bit ones after it.
  const buffer = new ArrayBuffer(4 * window + 2 * (2 * window) + 2 * window + 2 * rawLength)
  return {
    starts: new Uint32Array(buffer, 0, window),
    ring: new Uint16Array(buffer, 4 * window, 2 * window),
    values: new Uint16Array(buffer, 8 * window, window),
    raw: new Uint16Array(buffer, 10 * window, rawLength),
    bytes: new Uint8Array(buffer),
    reversed: undefined,
    z: undefined,
  }
}

/** Whether `memory` was made for watches under `options`: only then may a watch under them be handed it. */
export function memoryFits(memory: WatchMemory, options: RepetitionOptions): boolean {
  return memory.ring.length === 2 * windowOf(options) && memory.raw.length === RAW_UNITS * options.maxUnit
}

/**
 * Watch one text (one block of one response) for repetition. `quotedRun`, when given, says how long a run of a
 * repetition the request holds (a quote is spared up to that length and `minChars` more). `memory`, when given, is
 * memory made for these options that no other watch is using any more: this watch clears it and writes into it.
 */
export function createRepetitionWatch(options: RepetitionOptions, quotedRun?: QuotedRun, memory?: WatchMemory): RepetitionWatch {
  const { chars, copies, minCopies, minChars, maxUnit, every, edits } = options
  const window = windowOf(options)
  if (memory !== undefined) {
    if (!memoryFits(memory, options)) throw new Error('a watch was handed memory made for other options')
    // A fresh watch's memory is all zeros, and a look may compare the ring's places before the text's first character.
    memory.bytes.fill(0)
  }
  const own = memory ?? createWatchMemory(options)
  const { ring, values, starts, raw } = own
  const folder = new Folder()
  let folded = 0
  let seen = 0
  // Where the last folded character is in the ring's first half, and where the next streamed one goes in `raw`.
  let at = -1
  let rawAt = 0
  let sinceLook = 0
  // Inside a code fence (```): copies whose numbers change there are code or a quoted log, not a runaway.
  let fenced = false
  let lineTicks = 0
  let lineOther = false
  // Repetitions weighed for sparing (a quote, a run in base64): the unit, where it began (in folded characters), and
  // the length it is spared up to.
  const spared: { unit: string; from: number; upTo: number }[] = []
  const end = (): number => at + window + 1

  /** The period a candidate must reach to count, by the copies rule or the characters rule, whichever is shorter. */
  const needed = (period: number): number => Math.min(Math.max(minChars, copies * period), Math.max(chars, minCopies * period))

  /** The shortest unit that repeats enough at the tail and counts: `aaaa` is `a` four times, not `aa` twice. */
  function look(): Repetition | undefined {
    const length = Math.min(folded, window)
    if (length < minChars) return undefined
    const last = end() - 1
    const longest = Math.min(maxUnit, Math.floor(length / minCopies))
    const weighing = { left: WEIGHED, passed: [] as number[] }
    const scan: Scan = { period: 0, match: 0, budget: 2 * window }
    for (;;) {
      // The text that does not repeat, which is nearly all of it, never leaves this loop but at its end.
      const next = nextCandidate(ring, last, longest, options, weighing.passed, scan)
      if (next === 'none') return undefined
      if (next === 'budget') return lookByZArray(length, longest, scan.period + 1, weighing)
      const { period, match } = scan
      let repeats = 0
      if (next === 'exact') {
        repeats = span(period, match, length)
      } else {
        const through = spanThroughGlitches(period, match, length)
        scan.budget -= through.cost
        repeats = through.repeats
      }
      if (repeats >= needed(period)) {
        const found = weigh(period, repeats, weighing)
        if (found !== undefined || weighing.left === 0) return found
      }
      if (scan.budget < 0) return lookByZArray(length, longest, period + 1, weighing)
    }
  }

  /** The same answer as {@link look} from `first` on, from the Z-array of the window read backwards: z[p] + p is the span of period p. */
  function lookByZArray(length: number, longest: number, first: number, weighing: Weighing): Repetition | undefined {
    const last = end() - 1
    const reversed = own.reversed ??= new Uint16Array(window)
    const z = own.z ??= new Int32Array(window)
    for (let i = 0; i < length; i++) reversed[i] = ring[last - i]!
    zArray(reversed, length, z)
    for (let period = first; period <= longest; period++) {
      if (weighing.passed.length > 0 && passedOver(weighing.passed, period)) continue
      const repeats = z[period]! + period
      if (repeats < needed(period)) continue
      const found = weigh(period, repeats, weighing)
      if (found !== undefined || weighing.left === 0) return found
    }
    return undefined
  }

  /**
   * A candidate of `period` spanning `repeats`, weighed: the repetition when it counts, else undefined, and its period
   * passed over for the rest of the look (a multiple of it is the same text, and counts no more).
   */
  function weigh(period: number, repeats: number, weighing: Weighing): Repetition | undefined {
    weighing.left--
    weighing.passed.push(period)
    const unit = unitAt(period, repeats)
    const kind = unitKind(unit)
    if (kind === 'data') return undefined
    if (repeats < chars && (kind === 'symbols' || repeats < Math.max(minChars, copies * period))) return undefined
    if (kind === 'symbols' && isSpared(unit, repeats, () => (continuesEncoding(repeats) ? Infinity : 0))) return undefined
    if (!numbersRepeat(period, repeats) && (fenced || !numbersCarryNoContent(unit))) return undefined
    if (kind === 'text' && isSpared(unit, repeats, () => quoted(period, repeats))) return undefined
    return { unit: asStreamed(unit, period) ?? unit, copies: Math.floor(repeats / period), span: repeats, seen }
  }

  /**
   * The last whole copy of `unit` (folded, `period` long) at the tail, as the text streamed it (its numbers and white
   * space as written), or undefined when that text is no longer kept. Found by its folded text, not by its place: a
   * glitch shifts the copies before it.
   */
  function asStreamed(unit: string, period: number): string | undefined {
    // A copy that ends before the tail does has its trailing white space as streamed (a next line's indentation). The
    // search is the engine's own, over the last two units: a loop here would cost the unit's length squared.
    const from = end() - 2 * period
    const found = String.fromCharCode(...ring.subarray(from, end() - 1)).lastIndexOf(unit)
    const last = found < 0 ? end() - period : from + found
    const start = starts[last % window]!
    const stop = last + period < end() ? starts[(last + period) % window]! : seen
    if (seen - start > raw.length) return undefined
    let text = ''
    for (let at = start; at < stop; at++) text += String.fromCharCode(raw[at % raw.length]!)
    // A line's indentation streams after the line break before it: `}\n  ` is written `  }\n`.
    const indent = /\n([ \t]+)$/.exec(text)
    return indent === null ? text : indent[1]! + text.slice(0, -indent[1]!.length)
  }

  /**
   * The span of the repetition with `period` through small glitches, from `match` characters known to repeat exactly
   * at the tail: past each place where the text stops equalling itself `period` characters back, the first place
   * within `period` + 2 characters where it does again for a whole unit, if that unit is the same one turned (a
   * dropped letter shifts the copies before it). At most one glitch for every {@link GLITCH_COPIES} copies, and
   * `edits` in all; `cost` is the comparisons made, for the look's budget.
   */
  function spanThroughGlitches(period: number, match: number, length: number): { repeats: number; cost: number } {
    const last = end() - 1
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

  /**
   * Whether the run of one character that ends the text, `repeats` long, goes on a token of base64 or hex
   * (`…;base64,Qk02MAAAAAAAADYAAAAoAAAAQAAAAEAAAAABABgAAAAAAAAwAAAAAAAAAAAAAAAAAAAAAAAA`): an image's pixels of one
   * value, not a rule.
   */
  function continuesEncoding(repeats: number): boolean {
    const from = end() - repeats
    const kept = end() - Math.min(folded, window)
    let token = ''
    for (let at = from - 1; at >= Math.max(kept, from - ENCODED_TOKEN); at--) {
      const char = String.fromCharCode(ring[at]!)
      if (/[\s,]/.test(char)) break
      token = char + token
    }
    return token.length >= 16 && isEncoded(token)
  }

  /** Whether the copies repeat their numbers too, not only the shape of them. */
  function numbersRepeat(period: number, repeats: number): boolean {
    const last = end() - 1
    for (let i = 0; i < repeats - period; i++) if (values[(last - i) % window] !== values[(last - i - period) % window]) return false
    return true
  }

  /**
   * Whether this repetition is spared, and up to how long: `upTo()` says it the first time the unit is weighed. A
   * repetition can run on past the window, so where it began is kept while it is weighed again.
   */
  function isSpared(unit: string, repeats: number, upTo: () => number): boolean {
    let known = spared.find(entry => entry.unit === unit)
    if (known === undefined) {
      known = { unit, from: folded - repeats, upTo: upTo() }
      spared.push(known)
      if (spared.length > SPARED) spared.shift()
    } else if (repeats < window && known.from !== folded - repeats) {
      // Another run of the same unit: weighed afresh.
      known.from = folded - repeats
      known.upTo = upTo()
    }
    return folded - known.from <= known.upTo
  }

  /** How long a run of this repetition the request holds (its tail looked up there), `minChars` more; 0 if none. */
  function quoted(period: number, repeats: number): number {
    if (quotedRun === undefined) return 0
    const last = end()
    let sample = ''
    for (let at = last - Math.min(repeats, Math.max(minChars, 2 * period)); at < last; at++) sample += String.fromCharCode(ring[at]!)
    const run = quotedRun(sample, period)
    return run === 0 ? 0 : run + minChars
  }

  /** The whole span of the repetition with `period`, of which `match` + `period` characters are known to repeat. */
  function span(period: number, match: number, length: number): number {
    const last = end() - 1
    while (match < length - period && ring[last - match] === ring[last - match - period]) match++
    return match + period
  }

  /**
   * The unit as the model first wrote it: `period` characters from where the repetition begins. That start can fall
   * a few characters early, inside the text before it (`… run. I'll kill the stale process now.` repeats from the
   * `. ` of `run. `), so unless it follows a space or a line's end, the unit is turned to begin after its first line
   * break, else its first sentence end, else its first space, else its first dash or comma:
   * `I'll kill the stale process now.`, not `. I'll kill the stale process now`; `ISIS-`, not `SIS-I`.
   */
  function unitAt(period: number, repeats: number): string {
    const from = end() - repeats
    let text = ''
    for (let at = from; at < from + period; at++) text += String.fromCharCode(ring[at]!)
    const before = folded === repeats ? '\n' : repeats < window ? String.fromCharCode(ring[from - 1]!) : ''
    if (/\s/.test(before)) return text
    const edge = [/\n+/, /[.!?]\s+|[。！？]+/, /\s+/, /[-,;:|/]+/].map(pattern => pattern.exec(text)).find(match => match != null)
    const at = edge == null ? 0 : edge.index + edge[0].length
    return at >= text.length ? text : text.slice(at) + text.slice(0, at)
  }

  /** Follow the code fences of the raw text: a line that starts with three backticks opens or closes one. */
  function fence(code: number): void {
    if (code === 0x0a) {
      lineTicks = 0
      lineOther = false
    } else if (code === 0x60 && !lineOther) {
      if (++lineTicks === 3) fenced = !fenced
    } else if (code !== 0x20 && code !== 0x09) {
      lineOther = true
    }
  }

  return {
    push(text) {
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i)
        raw[rawAt] = code
        if (++rawAt === raw.length) rawAt = 0
        seen++
        if (code === 0x0a || code === 0x60 || !lineOther) fence(code)
        const step = folder.next(code)
        if (step === SKIP) continue
        if (step === APPEND) {
          folded++
          if (++at === window) at = 0
          starts[at] = seen - 1
        }
        ring[at] = ring[at + window] = folder.code
        values[at] = folder.value
        if (step === REWRITE || ++sinceLook < every) continue
        sinceLook = 0
        const found = look()
        if (found !== undefined) return found
      }
      return undefined
    },
    get size() {
      return Math.min(folded, window)
    },
  }
}

/** Where a look's scan over the periods is: the period it reached, what matched there, and its budget left. */
interface Scan {
  period: number
  match: number
  budget: number
}

/**
 * The scan of a look, from the period after `scan.period`: the next period whose text, read back from `last`, equals
 * itself that many characters earlier for as long as the rule needs (`exact`), or for 8 copies of a unit short enough
 * to follow through glitches (`glitches`); `none` past the longest, `budget` once the comparisons run past the budget.
 * On its own, with the typed array and plain numbers, so that it compiles to a tight loop: it is the watch's cost.
 */
function nextCandidate(
  ring: Uint16Array, last: number, longest: number, options: RepetitionOptions, passed: readonly number[], scan: Scan,
): 'exact' | 'glitches' | 'none' | 'budget' {
  const { chars, copies, minCopies, minChars, edits } = options
  for (let period = scan.period + 1; period <= longest; period++) {
    if (passed.length > 0 && passedOver(passed, period)) continue
    // How far back the text equals itself `period` characters earlier; enough of it makes a candidate.
    const want = Math.min(Math.max(minChars, copies * period), Math.max(chars, minCopies * period)) - period
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
function passedOver(passed: readonly number[], period: number): boolean {
  for (const shorter of passed) if (period % shorter === 0) return true
  return false
}

/** What a look has weighed: how many more candidates it may, and the periods it passed over. */
interface Weighing {
  left: number
  readonly passed: number[]
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
