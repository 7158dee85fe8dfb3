/**
 * When a repetition at the tail of a response counts as a runaway: the thresholds (`copies` copies over `minChars`
 * characters, or `chars` characters over `minCopies` copies, whichever comes first), and the exemptions: a run of
 * symbols or of one character needs `chars` (a rule or a banner, unless it goes on a base64 token), data never counts,
 * copies whose numbers change count only for text outside code (a counter, not a table's values), and a repetition the
 * request holds is a quote, spared up to the length it has there (`quotes.ts`). The watch finds candidates; these
 * rules weigh them.
 * Design: docs/design.md#responses
 * @module dsh-brake/core/stream/runaway-rules
 */
import type { QuotedRun } from './quotes.js'
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

/** Copies of a unit for each glitch tolerated in them, at least (in the response, and in the request it quotes). */
export const GLITCH_COPIES = 8

/** Units weighed for sparing, remembered at most (each with the length it is spared up to). */
const SPARED = 4

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

  /** `quotedRun`, when given, says how long a run of a repetition the request holds. */
  constructor(options: RunawayOptions, quotedRun: QuotedRun | undefined) {
    this.options = options
    this.quotedRun = quotedRun
  }

  /**
   * Whether a candidate counts: `unit` (folded, turned to read as written) repeated with `period` over `repeats`
   * folded characters at the end of `tail`, `fenced` when the text is inside a code fence. The cheap tests first; each
   * pass over the tail or look-up in the request only once those before it passed.
   */
  counts(unit: string, period: number, repeats: number, tail: Tail, fenced: boolean): boolean {
    const { chars, copies, minChars } = this.options
    const kind = unitKind(unit)
    if (kind === 'data') return false
    if (repeats < chars && (kind === 'symbols' || repeats < Math.max(minChars, copies * period))) return false
    if (kind === 'symbols' && this.isSpared(unit, repeats, tail, () => (tail.continuesEncoding(repeats) ? Infinity : 0))) return false
    if (!tail.numbersRepeat(period, repeats) && (fenced || !numbersCarryNoContent(unit))) return false
    return !(kind === 'text' && this.isSpared(unit, repeats, tail, () => this.quoted(period, repeats, tail)))
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
