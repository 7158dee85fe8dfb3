/**
 * The window a watch keeps of the text it watches: its last folded characters (`fold.ts`), beside each the value of
 * its digits and where it began in the text as streamed, and the tail of the text as streamed, to quote a unit as the
 * model wrote it; and whether the text is inside a code fence. Fed the text as it streams, up to each look; read by the
 * look (the ring, backwards from its last character) and by the rules (a candidate's unit, its numbers, the token a
 * run goes on).
 * Design: docs/design.md#responses
 * @module dsh-brake/core/stream/folded-window
 */
import { APPEND, Folder, REWRITE, SKIP } from './fold.js'
import { zArray } from './period-scan.js'
import { blankBounds, windowOf, type RunawayOptions, type Tail } from './runaway-rules.js'
import type { LedgerSource } from './sentence-ledger.js'
import { isEncoded } from './unit-kind.js'

/** Characters before a run of one character read to tell whether it goes on a base64 or hex token. */
const ENCODED_TOKEN = 64

/** Longest units of the streamed text kept to quote a unit as written (white space folded away can make it longer). */
const RAW_UNITS = 2

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
   * side: they end just before the window's `end`, and a look reads them with no wrapping around.
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

/** Memory for watches under `options`, to hand to each of a series of them (see {@link WatchMemory}). */
export function createWatchMemory(options: RunawayOptions): WatchMemory {
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
export function memoryFits(memory: WatchMemory, options: RunawayOptions): boolean {
  return memory.ring.length === 2 * windowOf(options) && memory.raw.length === RAW_UNITS * options.maxUnit
}

/**
 * One text's window, in memory of its own or handed to it (cleared first). A class with plain fields: it is fed every
 * streamed character.
 */
export class FoldedWindow implements Tail, LedgerSource {
  readonly window: number
  readonly ring: Uint16Array
  private readonly values: Uint16Array
  private readonly starts: Uint32Array
  private readonly raw: Uint16Array
  /** Folded characters of the text so far, and characters as streamed. */
  folded = 0
  seen = 0
  /** Inside a code fence (```): copies whose numbers change there are code or a quoted log, not a runaway. */
  fenced = false
  /** The folded characters there were when the latest fence opened or closed. */
  private fencedSince = 0
  private readonly memory: WatchMemory
  private readonly folder = new Folder()
  // Where the last folded character is in the ring's first half, and where the next streamed one goes in `raw`.
  private at = -1
  private rawAt = 0
  // Folded characters to take before the next look; and of the line streaming now, its backticks at its start and
  // whether it has had anything else.
  private readonly every: number
  private untilLook: number
  private lineTicks = 0
  private lineOther = false
  // The run of white space the text ends in (folded away, so counted here): the folded characters there were when it
  // began, its characters as streamed and its line breaks; and the lengths at which a run ends a read.
  private blankAt = 0
  private blank = 0
  private breaks = 0
  private readonly blankChars: number
  private readonly blankBreaks: number

  constructor(options: RunawayOptions, memory?: WatchMemory) {
    if (memory !== undefined) {
      if (!memoryFits(memory, options)) throw new Error('a watch was handed memory made for other options')
      // A fresh watch's memory is all zeros, and a look may compare the ring's places before the text's first character.
      memory.bytes.fill(0)
    }
    this.window = windowOf(options)
    this.every = this.untilLook = options.every
    const bounds = blankBounds(options)
    this.blankChars = bounds.chars
    this.blankBreaks = bounds.breaks
    this.memory = memory ?? createWatchMemory(options)
    this.ring = this.memory.ring
    this.values = this.memory.values
    this.starts = this.memory.starts
    this.raw = this.memory.raw
  }

  /** Where the folded text ends in the ring: its last character is at `end - 1`, the `window` before it lie behind. */
  get end(): number {
    return this.at + this.window + 1
  }

  /** Folded characters kept now. */
  get length(): number {
    return Math.min(this.folded, this.window)
  }

  /**
   * The run of white space the text ends in: its characters as streamed and its line breaks; none when the text ends
   * in anything else.
   */
  get blankRun(): { chars: number; breaks: number } | undefined {
    return this.blankAt === this.folded && this.blank > 0 ? { chars: this.blank, breaks: this.breaks } : undefined
  }

  /**
   * Take `text` from `from` on, up to the character that makes a look due (every `every` folded characters appended,
   * or a run of white space grown to its bound): returns where the rest of it begins then, or -1 once all of it is
   * taken with no look due. One loop over plain locals, written back at its end: it runs for every streamed character,
   * and is most of what the watch costs.
   */
  feed(text: string, from: number): number {
    const { raw, ring, starts, values, folder, window, blankChars, blankBreaks } = this
    let { rawAt, seen, at, folded, untilLook, lineTicks, lineOther, fenced, fencedSince, blankAt, blank, breaks } = this
    let rest = -1
    for (let i = from; i < text.length; i++) {
      const code = text.charCodeAt(i)
      raw[rawAt] = code
      if (++rawAt === raw.length) rawAt = 0
      seen++
      // The code fences: a line that starts with three backticks opens or closes one.
      if (code === 0x0a) {
        lineTicks = 0
        lineOther = false
      } else if (!lineOther) {
        if (code !== 0x60) lineOther = code !== 0x20 && code !== 0x09
        else if (++lineTicks === 3) {
          fenced = !fenced
          fencedSince = folded
        }
      }
      const step = folder.next(code)
      // White space going on (a space or line break after white space, folded away): its run counted, from the one
      // character of it folded in, only here, off the path most characters take.
      let blankDue = false
      if (step === SKIP || (step === REWRITE && code === 0x0a)) {
        if (blankAt !== folded) {
          // A run begun by the white space character just folded in (at a text's start, where `blankAt` begins, a run
          // has none, and counts from 0).
          blankAt = folded
          blank = 1
          breaks = step === SKIP && folder.code === 0x0a ? 1 : 0
        }
        blankDue = ++blank === blankChars
        if (code === 0x0a && ++breaks === blankBreaks) blankDue = true
        if (step === SKIP) {
          if (!blankDue) continue
          rest = i + 1
          break
        }
      }
      if (step === APPEND) {
        folded++
        if (++at === window) at = 0
        starts[at] = seen - 1
      }
      ring[at] = ring[at + window] = folder.code
      values[at] = folder.value
      if (!blankDue && (step === REWRITE || --untilLook > 0)) continue
      if (!blankDue) untilLook = this.every
      rest = i + 1
      break
    }
    this.rawAt = rawAt
    this.seen = seen
    this.at = at
    this.folded = folded
    this.untilLook = untilLook
    this.lineTicks = lineTicks
    this.lineOther = lineOther
    this.fenced = fenced
    this.fencedSince = fencedSince
    this.blankAt = blankAt
    this.blank = blank
    this.breaks = breaks
    return rest
  }

  last(length: number): string {
    const end = this.end
    let text = ''
    for (let at = end - length; at < end; at++) text += String.fromCharCode(this.ring[at]!)
    return text
  }

  fencedAt(at: number): boolean {
    return at >= this.fencedSince ? this.fenced : !this.fenced
  }

  valueAt(at: number): number {
    return this.values[at % this.window]!
  }

  /**
   * The folded characters from `from` to `to` (counted from the text's start, within the window) as the model wrote
   * them, or folded when that text is no longer kept.
   */
  text(from: number, to: number): string {
    const { raw, starts, window } = this
    const start = starts[from % window]!
    const stop = to < this.folded ? starts[to % window]! : this.seen
    let text = ''
    if (this.seen - start > raw.length) {
      for (let at = from; at < to; at++) text += String.fromCharCode(this.ring[at % window]!)
      return text
    }
    for (let at = start; at < stop; at++) text += String.fromCharCode(raw[at % raw.length]!)
    return text.trim()
  }

  numbersRepeat(period: number, repeats: number): boolean {
    const { values } = this
    const last = this.end - 1
    const { window } = this
    for (let i = 0; i < repeats - period; i++) if (values[(last - i) % window] !== values[(last - i - period) % window]) return false
    return true
  }

  /**
   * Whether the run of one character that ends the text, `repeats` long, goes on a token of base64 or hex
   * (`…;base64,Qk02MAAAAAAAADYAAAAoAAAAQAAAAEAAAAABABgAAAAAAAAwAAAAAAAAAAAAAAAAAAAAAAAA`): an image's pixels of one
   * value, not a rule.
   */
  continuesEncoding(repeats: number): boolean {
    const from = this.end - repeats
    const kept = this.end - this.length
    let token = ''
    for (let at = from - 1; at >= Math.max(kept, from - ENCODED_TOKEN); at--) {
      const char = String.fromCharCode(this.ring[at]!)
      if (/[\s,]/.test(char)) break
      token = char + token
    }
    return token.length >= 16 && isEncoded(token)
  }

  /**
   * The unit as the model first wrote it: `period` characters from where the repetition of `repeats` characters
   * begins. That start can fall a few characters early, inside the text before it (`… run. I'll kill the stale
   * process now.` repeats from the `. ` of `run. `), so unless it follows a space or a line's end, the unit is turned
   * to begin after its first line break, else its first sentence end, else its first space, else its first dash or
   * comma: `I'll kill the stale process now.`, not `. I'll kill the stale process now`; `ISIS-`, not `SIS-I`.
   */
  unitAt(period: number, repeats: number): string {
    const from = this.end - repeats
    let text = ''
    for (let at = from; at < from + period; at++) text += String.fromCharCode(this.ring[at]!)
    const before = this.folded === repeats ? '\n' : repeats < this.window ? String.fromCharCode(this.ring[from - 1]!) : ''
    if (/\s/.test(before)) return text
    const edge = [/\n+/, /[.!?]\s+|[。！？]+/, /\s+/, /[-,;:|/]+/].map(pattern => pattern.exec(text)).find(match => match != null)
    const at = edge == null ? 0 : edge.index + edge[0].length
    return at >= text.length ? text : text.slice(at) + text.slice(0, at)
  }

  /**
   * The last whole copy of `unit` (folded, `period` long) at the tail, as the text streamed it (its numbers and white
   * space as written), or undefined when that text is no longer kept. Found by its folded text, not by its place: a
   * glitch shifts the copies before it.
   */
  asStreamed(unit: string, period: number): string | undefined {
    const { starts, raw } = this
    const end = this.end
    // A copy that ends before the tail does has its trailing white space as streamed (a next line's indentation). The
    // search is the engine's own, over the last two units: a loop here would cost the unit's length squared.
    const from = end - 2 * period
    const found = String.fromCharCode(...this.ring.subarray(from, end - 1)).lastIndexOf(unit)
    const last = found < 0 ? end - period : from + found
    const start = starts[last % this.window]!
    const stop = last + period < end ? starts[(last + period) % this.window]! : this.seen
    if (this.seen - start > raw.length) return undefined
    let text = ''
    for (let at = start; at < stop; at++) text += String.fromCharCode(raw[at % raw.length]!)
    // A line's indentation streams after the line break before it: `}\n  ` is written `  }\n`.
    const indent = /\n([ \t]+)$/.exec(text)
    return indent === null ? text : indent[1]! + text.slice(0, -indent[1]!.length)
  }

  /**
   * The window's last `length` folded characters read backwards, and its Z-array, in memory kept for them: z[p] + p is
   * the span of the repetition with period p at the tail.
   */
  reversedZArray(length: number): Int32Array {
    const reversed = this.memory.reversed ??= new Uint16Array(this.window)
    const z = this.memory.z ??= new Int32Array(this.window)
    const last = this.end - 1
    for (let i = 0; i < length; i++) reversed[i] = this.ring[last - i]!
    zArray(reversed, length, z)
    return z
  }
}
