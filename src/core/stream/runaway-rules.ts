/**
 * When a repetition at the tail of a response counts as a runaway: the thresholds (`copies` copies over `minChars`
 * characters, or `chars` characters over `minCopies` copies, whichever comes first), and the exemptions: a run of
 * symbols or of one character needs `chars` (a rule or a banner, unless it goes on a base64 token), data counts only
 * as an identical line come hundreds of times (a diagram's or a table's row), copies whose numbers change count only
 * for text outside code (a counter, not a table's values), and a repetition the request holds is a quote, spared up
 * to the length it has there (`quotes.ts`). White space, folded away before copies are compared, counts by its own
 * run's length. The watch finds candidates; these rules weigh them.
 * Design: docs/design.md#responses
 * @module dsh-brake/core/stream/runaway-rules
 */
import type { QuotedRun } from './quotes.js'
import type { ProseRun } from './sentence-ledger.js'
import { numbersCarryNoContent, unitKind } from './unit-kind.js'

/** Thresholds of the runaway watch. */
export interface RunawayOptions {
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

/** Candidates a look weighs at most (each costs its unit's length, and a quote look-up): the rest wait for the next look. */
export const WEIGHED = 8

/** The longest unit a repetition is followed through glitches for (the search for where it resumes costs its square). */
export const EDITED_UNIT = 64

/** Units weighed for sparing, remembered at most (each with the length it is spared up to). */
const SPARED = 4

/**
 * Copies of an identical line of data (a table's empty row, a diagram's row, a column's one value) that count, for
 * each copy the copies rule needs: 5 × 20, 100 at the defaults. Real tables and diagrams repeat one row a few times,
 * or a few dozen (a blank form); a runaway repeats it until the output cap.
 */
export const DATA_LINE_COPIES = 5

/**
 * A run of white space counts at `chars` characters, or at a quarter as many line breaks (800 at the defaults): white
 * space is folded away before copies are compared, so a response of nothing but line breaks never repeats there. The
 * real tool outputs of the evaluation hold at most 1,256 characters and 227 line breaks of it in a row.
 */
export const BLANK_BREAKS = 4

/**
 * Prose that keeps coming back counts when, over the last `chars` characters, prose sentences and lines fill at least
 * this share of them and sentences written twice before in the window fill {@link BACK_SHARE} of that prose
 * (`sentence-ledger.ts`): a loop that cycles through a few sentences in any order, a list whose lines come back, a
 * paragraph re-printed in fragments. On the corpus a song's chorus between its verses fills 45 % to 90 %, the real
 * tool outputs of the evaluation at most 92 %; lists and checklists whose items are new, none.
 */
export const PROSE_SHARE = 0.5
export const BACK_SHARE = 0.95

/** The run of white space that counts: its characters as streamed, or its line breaks. */
export function blankBounds({ chars }: RunawayOptions): { chars: number; breaks: number } {
  return { chars, breaks: Math.max(1, Math.floor(chars / BLANK_BREAKS)) }
}

/** The folded characters a watch keeps: past `chars`, the characters rule comes first for every unit. */
export function windowOf({ chars, minCopies, maxUnit }: RunawayOptions): number {
  return Math.max(chars, minCopies * maxUnit)
}

/**
 * The folded characters of repetition a unit of `period` must span to be a candidate: by the copies rule or by the
 * characters rule, whichever is shorter. Plain numbers in, so that the scan's loop can call it for every period.
 */
export function threshold(period: number, minChars: number, copies: number, chars: number, minCopies: number): number {
  return Math.min(Math.max(minChars, copies * period), Math.max(chars, minCopies * period))
}

/** What the rules read of the text's folded tail, beyond a candidate's unit and span. */
export interface Tail {
  /** Folded characters of the text so far. */
  readonly folded: number
  /** Folded characters kept at most. */
  readonly window: number
  /** Whether the run of one character that ends the text, `repeats` long, goes on a token of base64 or hex. */
  continuesEncoding(repeats: number): boolean
  /** Whether the copies repeat their numbers too, not only the shape of them. */
  numbersRepeat(period: number, repeats: number): boolean
  /** The last `length` folded characters. */
  last(length: number): string
}

/**
 * The rules for one text, with what they remember of it: the units weighed for sparing (a quote, a run in base64),
 * each with where it began and the length it is spared up to, as a repetition can run on past the window.
 */
export class RunawayRules {
  private readonly options: RunawayOptions
  private readonly quotedRun: QuotedRun | undefined
  private readonly spared: { unit: string; from: number; upTo: number }[] = []
  private readonly blank: { chars: number; breaks: number }

  /** `quotedRun`, when given, says how long a run of a repetition the request holds. */
  constructor(options: RunawayOptions, quotedRun: QuotedRun | undefined) {
    this.options = options
    this.quotedRun = quotedRun
    this.blank = blankBounds(options)
  }

  /**
   * The folded characters a text needs before its prose can count (half the run's, all prose): the watch reads its
   * sentences only from there on, most responses never reaching it. What came before is still in the window then.
   */
  get proseFrom(): number {
    return PROSE_SHARE * this.options.chars
  }

  /**
   * Whether the prose of the run, most of it sentences come back, counts: not when the request holds the text's tail
   * (the response is quoting it).
   */
  proseCounts(run: ProseRun, tail: Tail): boolean {
    const { chars, minChars } = this.options
    if (run.prose < PROSE_SHARE * chars || run.back < BACK_SHARE * run.prose) return false
    return this.quotedRun === undefined || this.quotedRun(tail.last(minChars), minChars) === 0
  }

  /** Whether a run of white space, `chars` characters as streamed holding `breaks` line breaks, counts. */
  blankCounts(chars: number, breaks: number): boolean {
    return chars >= this.blank.chars || breaks >= this.blank.breaks
  }

  /**
   * Whether a candidate counts: `unit` (folded, turned to read as written) repeated with `period` over `repeats`
   * folded characters at the end of `tail`, `fenced` when the text is inside a code fence. The cheap tests first; each
   * pass over the tail or look-up in the request only once those before it passed.
   */
  counts(unit: string, period: number, repeats: number, tail: Tail, fenced: boolean): boolean {
    const { chars, copies, minChars } = this.options
    const kind = unitKind(unit)
    if (kind === 'data') {
      if (!unit.includes('\n') || !this.dataLinesCount(period, repeats, tail)) return false
      return !this.isSpared(unit, repeats, tail, () => this.quoted(period, repeats, tail))
    }
    if (repeats < chars && (kind === 'symbols' || repeats < Math.max(minChars, copies * period))) return false
    if (kind === 'symbols' && this.isSpared(unit, repeats, tail, () => (tail.continuesEncoding(repeats) ? Infinity : 0))) return false
    if (!tail.numbersRepeat(period, repeats) && (fenced || !numbersCarryNoContent(unit))) return false
    return !(kind === 'text' && this.isSpared(unit, repeats, tail, () => this.quoted(period, repeats, tail)))
  }

  /**
   * Whether lines of data, `period` folded characters, count over `repeats`: come {@link DATA_LINE_COPIES} times the
   * copies the rule needs, identical, their numbers too (rows whose values change are a table). A line too long for
   * that many to fit in the window (60 folded characters at the defaults: a matrix's row of 16 values) never does:
   * a few dozen such rows are a real matrix as often as a runaway.
   */
  private dataLinesCount(period: number, repeats: number, tail: Tail): boolean {
    return repeats >= DATA_LINE_COPIES * this.options.copies * period && tail.numbersRepeat(period, repeats)
  }

  /**
   * Whether this repetition is spared, and up to how long: `upTo()` says it the first time the unit is weighed. A
   * repetition can run on past the window, so where it began is kept while it is weighed again.
   */
  private isSpared(unit: string, repeats: number, tail: Tail, upTo: () => number): boolean {
    const { spared } = this
    let known = spared.find(entry => entry.unit === unit)
    if (known === undefined) {
      known = { unit, from: tail.folded - repeats, upTo: upTo() }
      spared.push(known)
      if (spared.length > SPARED) spared.shift()
    } else if (repeats < tail.window && known.from !== tail.folded - repeats) {
      // Another run of the same unit: weighed afresh.
      known.from = tail.folded - repeats
      known.upTo = upTo()
    }
    return tail.folded - known.from <= known.upTo
  }

  /** How long a run of this repetition the request holds (its tail looked up there), `minChars` more; 0 if none. */
  private quoted(period: number, repeats: number, tail: Tail): number {
    if (this.quotedRun === undefined) return 0
    const run = this.quotedRun(tail.last(Math.min(repeats, Math.max(this.options.minChars, 2 * period))), period)
    return run === 0 ? 0 : run + this.options.minChars
  }
}
