/**
 * The runaway watch: a response that repeats itself while it streams, found as the tail of its text one unit
 * repeated, on its folded text (white space runs as one, digit runs as `0`: `fold.ts`), kept in a window
 * (`folded-window.ts`). Every `every` characters it looks at the window: the scan (`period-scan.ts`) finds the periods
 * whose text repeats long enough, shortest first, and the rules (`runaway-rules.ts`) weigh each: the thresholds, and
 * the exemptions for symbols, data, numbers in code and quotes. Work and memory stay bounded whatever the response's
 * length (a window, a look every `every` characters, a Z-array past a budget).
 * Design: docs/design.md#responses
 * @module dsh-brake/core/stream/runaway-watch
 */
import { FoldedWindow, type WatchMemory } from './folded-window.js'
import { nextCandidate, passedOver, span, spanThroughGlitches, type Scan, type Weighing } from './period-scan.js'
import type { QuotedRun } from './quotes.js'
import { RunawayRules, threshold, WEIGHED, type RunawayOptions } from './runaway-rules.js'
import { SentenceLedger } from './sentence-ledger.js'

/** The repetition found at the tail of a text. */
export interface Repetition {
  /**
   * The repeated unit as its last copy streamed (folded when that copy no longer is at hand), turned to start where a
   * word or line does when it can (so it reads as written).
   */
  readonly unit: string
  /** Back-to-back copies of it at the tail, whole ones. */
  readonly copies: number
  /**
   * Folded characters of the tail that repeat, at least `copies` × the unit's length; for a run of white space (folded
   * to one character), its characters as streamed.
   */
  readonly span: number
  /** Characters of the text seen so far, as streamed. */
  readonly seen: number
}

/**
 * Watches one text (one block of one response) for repetition. `quotedRun`, when given, says how long a run of a
 * repetition the request holds (a quote is spared up to that length and `minChars` more). `memory`, when given, is
 * memory made for these options that no other watch is using any more: this watch clears it and writes into it.
 *
 * A class rather than a factory of closures (as in `lru-table.ts`): every streamed block makes one, and its methods
 * are made once, on the prototype.
 */
export class RunawayWatch {
  /**
   * A watch made at load and kept. V8 keeps the hidden class of a class's objects only while one of them lives: a full
   * collection between two responses, with no watch alive, would drop it, and with it the optimized code of the
   * watch's loop, which would run unoptimized again at the next response (the bench's stream figure showed it, 10 %
   * a character). One kept watch keeps its window's and its rules' classes too. Its options are the least there are,
   * so its memory is a few bytes.
   */
  private static readonly kept = RunawayWatch.keep()

  /** The kept watch, with a ledger of its own, fed a character. */
  private static keep(): RunawayWatch {
    const kept = new RunawayWatch({ chars: 1, copies: 1, minCopies: 1, minChars: 1, maxUnit: 1, every: 1, edits: 0 })
    kept.ledger = new SentenceLedger(kept.tail.window, 1)
    kept.push('.')
    return kept
  }

  private readonly options: RunawayOptions
  private readonly tail: FoldedWindow
  private readonly rules: RunawayRules
  // Made once the text is long enough for its prose to count: most responses never are.
  private ledger: SentenceLedger | undefined

  constructor(options: RunawayOptions, quotedRun?: QuotedRun, memory?: WatchMemory) {
    this.options = options
    this.tail = new FoldedWindow(options, memory)
    this.rules = new RunawayRules(options, quotedRun)
  }

  /** Folded characters kept now (for the bound checks in the tests). */
  get size(): number {
    return this.tail.length
  }

  /** Feed the next piece of the text; returns the repetition at its tail when it has grown long enough. */
  push(text: string): Repetition | undefined {
    let at = 0
    while ((at = this.tail.feed(text, at)) >= 0) {
      const found = this.look()
      if (found !== undefined) return found
    }
    return undefined
  }

  /**
   * What the tail repeats, if it counts: a run of white space grown to its bound, else the shortest unit repeated back
   * to back, else prose that keeps coming back.
   */
  private look(): Repetition | undefined {
    const { tail } = this
    const blank = tail.blankRun
    if (blank !== undefined && this.rules.blankCounts(blank.chars, blank.breaks)) {
      const lines = blank.breaks > 0
      return { unit: lines ? '\n' : ' ', copies: lines ? blank.breaks : blank.chars, span: blank.chars, seen: tail.seen }
    }
    const found = this.lookForPeriods()
    if (found !== undefined || tail.folded < this.rules.proseFrom) return found
    const ledger = this.ledger ??= new SentenceLedger(tail.window, this.options.chars)
    const prose = ledger.read(tail)
    if (!this.rules.proseCounts(prose, tail)) return undefined
    const { unit, span } = ledger.returning((from, to) => tail.text(from, to), tail.folded)
    return { unit, copies: Math.max(1, Math.floor(prose.back / Math.max(1, unit.length))), span, seen: tail.seen }
  }

  /** The shortest unit that repeats enough at the tail and counts: `aaaa` is `a` four times, not `aa` twice. */
  private lookForPeriods(): Repetition | undefined {
    const { options, tail } = this
    const { minChars, minCopies, maxUnit, copies, chars, edits } = options
    const length = tail.length
    if (length < minChars) return undefined
    const last = tail.end - 1
    const longest = Math.min(maxUnit, Math.floor(length / minCopies))
    const weighing: Weighing = { left: WEIGHED, passed: [] }
    const scan: Scan = { period: 0, match: 0, budget: 2 * tail.window }
    for (;;) {
      // The text that does not repeat, which is nearly all of it, never leaves this loop but at its end.
      const next = nextCandidate(tail.ring, last, longest, options, weighing.passed, scan)
      if (next === 'none') return undefined
      if (next === 'budget') return this.lookByZArray(length, longest, scan.period + 1, weighing)
      const { period, match } = scan
      let repeats = 0
      if (next === 'exact') {
        repeats = span(tail.ring, last, period, match, length)
      } else {
        const through = spanThroughGlitches(tail.ring, last, period, match, length, edits)
        scan.budget -= through.cost
        repeats = through.repeats
      }
      if (repeats >= threshold(period, minChars, copies, chars, minCopies)) {
        const found = this.weigh(period, repeats, weighing)
        if (found !== undefined || weighing.left === 0) return found
      }
      if (scan.budget < 0) return this.lookByZArray(length, longest, period + 1, weighing)
    }
  }

  /** The same answer as {@link look} from `first` on, from the Z-array of the window read backwards: z[p] + p is the span of period p. */
  private lookByZArray(length: number, longest: number, first: number, weighing: Weighing): Repetition | undefined {
    const { minChars, copies, chars, minCopies } = this.options
    const z = this.tail.reversedZArray(length)
    for (let period = first; period <= longest; period++) {
      if (weighing.passed.length > 0 && passedOver(weighing.passed, period)) continue
      const repeats = z[period]! + period
      if (repeats < threshold(period, minChars, copies, chars, minCopies)) continue
      const found = this.weigh(period, repeats, weighing)
      if (found !== undefined || weighing.left === 0) return found
    }
    return undefined
  }

  /**
   * A candidate of `period` spanning `repeats`, weighed: the repetition when it counts, else undefined, and its period
   * passed over for the rest of the look (a multiple of it is the same text, and counts no more).
   */
  private weigh(period: number, repeats: number, weighing: Weighing): Repetition | undefined {
    weighing.left--
    weighing.passed.push(period)
    const { tail } = this
    const unit = tail.unitAt(period, repeats)
    if (!this.rules.counts(unit, period, repeats, tail, tail.fenced)) return undefined
    return { unit: tail.asStreamed(unit, period) ?? unit, copies: Math.floor(repeats / period), span: repeats, seen: tail.seen }
  }
}
