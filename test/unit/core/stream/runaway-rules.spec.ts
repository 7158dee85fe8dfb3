import { describe, expect, it } from 'vitest'
import { DEFAULTS as CONFIG } from '../../../../src/config/keys.ts'
import { resolveOptions } from '../../../../src/config/resolve.ts'
import { RunawayRules, threshold, windowOf, type Tail } from '../../../../src/core/stream/runaway-rules.ts'

/** The defaults a brake runs with: 20 copies or 3,200 characters, 3 copies and 256 characters at least. */
const DEFAULTS = resolveOptions(CONFIG).stream!

/** A tail as the rules read it, its answers given; `asked` lists the questions put to it, in order. */
function tailOf(answers: { folded?: number; numbersRepeat?: boolean; encoding?: boolean } = {}): Tail & { asked: string[] } {
  const asked: string[] = []
  return {
    asked,
    folded: answers.folded ?? 10_000,
    window: 6_000,
    continuesEncoding: () => (asked.push('encoding'), answers.encoding ?? false),
    numbersRepeat: () => (asked.push('numbers'), answers.numbersRepeat ?? true),
    last: (length: number) => (asked.push('last'), 'x'.repeat(length)),
  }
}

const rules = (quoted?: number): RunawayRules => new RunawayRules(DEFAULTS, quoted === undefined ? undefined : () => quoted)

describe('the thresholds', () => {
  it.each([
    // A short unit: 20 copies, 256 characters at least.
    [1, 256], [6, 256], [13, 260], [100, 2_000],
    // A long unit: 3,200 characters, 3 copies at least.
    [160, 3_200], [330, 3_200], [1_000, 3_200], [1_500, 4_500], [2_000, 6_000],
  ])('a unit of %i characters is a candidate from %i characters of repetition', (period, chars) => {
    expect(threshold(period, DEFAULTS.minChars, DEFAULTS.copies, DEFAULTS.chars, DEFAULTS.minCopies)).toBe(chars)
  })

  it('keeps a window in which every unit reaches its threshold: 3 copies of the longest unit', () => {
    expect(windowOf(DEFAULTS)).toBe(6_000)
    expect(windowOf({ ...DEFAULTS, maxUnit: 100 })).toBe(3_200)
  })
})

describe('what counts', () => {
  it('text at its threshold, asking whether its numbers repeat, then whether the request holds it', () => {
    const tail = tailOf()
    expect(rules().counts('court ', 6, 256, tail, false)).toBe(true)
    expect(tail.asked).toEqual(['numbers'])
    expect(rules(0).counts('court ', 6, 256, tail, false)).toBe(true)
    expect(tail.asked).toEqual(['numbers', 'numbers', 'last'])
  })

  it('a run of symbols or of one character only at 3,200 characters, unless it goes on a base64 token', () => {
    expect(rules().counts('=', 1, 3_199, tailOf(), false)).toBe(false)
    expect(rules().counts('=', 1, 3_200, tailOf(), false)).toBe(true)
    expect(rules().counts('A', 1, 12_000, tailOf({ encoding: true }), false)).toBe(false)
  })

  it('data within a line never, however long', () => {
    for (const unit of ['0,', 'gICA', '0.0 ']) {
      const tail = tailOf()
      expect(rules().counts(unit, unit.length, 6_000, tail, false)).toBe(false)
      expect(tail.asked).toEqual([])
    }
  })

  it('an identical line of data from its 100th copy, its numbers too, unless quoted; a line too long for 100 never', () => {
    expect(rules().counts('| |\n', 4, 396, tailOf(), false)).toBe(false)
    expect(rules().counts('| |\n', 4, 400, tailOf(), false)).toBe(true)
    expect(rules().counts('0,0,0,0\n', 8, 800, tailOf({ numbersRepeat: false }), false)).toBe(false)
    expect(rules().counts('0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n', 70, 6_000, tailOf(), false)).toBe(false)
    expect(rules(1_000).counts('| |\n', 4, 800, tailOf({ folded: 4_000 }), false)).toBe(false)
  })

  it('a run of white space at 3,200 characters or 800 line breaks', () => {
    expect(rules().blankCounts(3_199, 799)).toBe(false)
    expect(rules().blankCounts(3_200, 0)).toBe(true)
    expect(rules().blankCounts(800, 800)).toBe(true)
  })

  it('prose most of it come back, from half the run and 95 % of that, unless the request holds the tail', () => {
    expect(rules().proseCounts({ prose: 1_599, back: 1_599 }, tailOf())).toBe(false)
    expect(rules().proseCounts({ prose: 1_600, back: 1_519 }, tailOf())).toBe(false)
    expect(rules().proseCounts({ prose: 1_600, back: 1_520 }, tailOf())).toBe(true)
    expect(rules(0).proseCounts({ prose: 3_000, back: 3_000 }, tailOf())).toBe(true)
    expect(rules(256).proseCounts({ prose: 3_000, back: 3_000 }, tailOf())).toBe(false)
  })

  it('copies whose numbers change only as prose outside a code fence', () => {
    const prose = 'Retrying the request (attempt 0). '
    expect(rules().counts(prose, prose.length, 3_200, tailOf({ numbersRepeat: false }), false)).toBe(true)
    expect(rules().counts(prose, prose.length, 3_200, tailOf({ numbersRepeat: false }), true)).toBe(false)
    expect(rules().counts('retry(0);\n', 10, 3_200, tailOf({ numbersRepeat: false }), false)).toBe(false)
  })

  it('a quote up to as long as the run the request holds, 256 characters more', () => {
    const quoting = rules(1_000)
    // The run began 1,000 folded characters back; it is spared up to 1,256.
    expect(quoting.counts('line\n', 5, 1_000, tailOf({ folded: 5_000 }), false)).toBe(false)
    expect(quoting.counts('line\n', 5, 1_256, tailOf({ folded: 5_256 }), false)).toBe(false)
    expect(quoting.counts('line\n', 5, 1_260, tailOf({ folded: 5_260 }), false)).toBe(true)
  })

  it('looks a quoted unit up once while its run goes on, and afresh for another run of it', () => {
    let lookups = 0
    const quoting = new RunawayRules(DEFAULTS, () => (lookups++, 1_000))
    quoting.counts('line\n', 5, 1_000, tailOf({ folded: 5_000 }), false)
    quoting.counts('line\n', 5, 1_100, tailOf({ folded: 5_100 }), false)
    expect(lookups).toBe(1)
    quoting.counts('line\n', 5, 400, tailOf({ folded: 9_000 }), false)
    expect(lookups).toBe(2)
  })
})
