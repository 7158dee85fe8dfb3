import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULTS as CONFIG } from '../../../../src/config/keys.ts'
import { resolveOptions } from '../../../../src/config/resolve.ts'
import { createRepetitionWatch, type Repetition, type RepetitionOptions } from '../../../../src/core/detectors/repetition.ts'
import { RESPONSES, tokens } from '../../../loop/corpus/responses.ts'

/** The defaults a brake runs with. */
const DEFAULTS = resolveOptions(CONFIG).stream!

/** Stream `text` through a watch in token-sized deltas: the first repetition found, and the characters fed by then. */
function watch(text: string, options: RepetitionOptions = DEFAULTS): { found: Repetition | undefined; fed: number } {
  const watcher = createRepetitionWatch(options)
  let fed = 0
  for (const delta of tokens(text)) {
    fed += delta.length
    const found = watcher.push(delta)
    if (found !== undefined) return { found, fed }
  }
  return { found: undefined, fed }
}

describe('the repetition watch on the response corpus', () => {
  it('runs with the documented defaults: 8,000 characters of at least 4 copies, looked at every 256', () => {
    expect(DEFAULTS).toEqual({ chars: 8000, copies: 4, maxUnit: 2000, every: 256 })
  })

  it.each(RESPONSES.filter(entry => entry.kind === 'trap').map(entry => [entry.name, entry] as const))('never cuts %s', (_, entry) => {
    // Each trap is long enough that the threshold alone does not spare it.
    expect(entry.text.length).toBeGreaterThan(DEFAULTS.chars)
    expect(watch(entry.text).found).toBeUndefined()
  })

  it.each(RESPONSES.filter(entry => entry.kind === 'loop').map(entry => [entry.name, entry] as const))('cuts %s soon after it begins', (_, entry) => {
    const { found, fed } = watch(entry.text)
    const { from, unit } = entry.loop!
    expect(found).toBeDefined()
    // Found at the first look once the repetition spans the threshold and holds enough copies: never later than that
    // plus one look's stride and one unit (the repetition may begin mid-unit).
    const needed = Math.max(DEFAULTS.chars, DEFAULTS.copies * unit.length)
    expect(fed - from).toBeGreaterThanOrEqual(needed - unit.length)
    expect(fed - from).toBeLessThanOrEqual(needed + DEFAULTS.every + unit.length)
    // The unit reads as the model wrote it, and the count is of whole copies streamed.
    expect(found!.unit).toBe(unit)
    expect(found!.copies).toBe(Math.floor(found!.span / unit.length))
    expect(found!.copies).toBeGreaterThanOrEqual(DEFAULTS.copies)
    // The look falls inside the delta that completed the stride: the whole delta has streamed.
    expect(found!.seen).toBeLessThanOrEqual(fed)
    expect(found!.seen).toBeGreaterThan(fed - 8)
  })
})

describe('what counts as repeating', () => {
  it('takes the shortest unit: a token repeated is the token, not two of it', () => {
    expect(watch('ab'.repeat(5000)).found?.unit).toBe('ab')
  })

  it('needs the copies as well as the characters: a passage of 1,000 characters three times is not cut', () => {
    const passage = Array.from({ length: 100 }, (_, i) => `w${i * 37 % 101}x`).join(' ').padEnd(1000, '.')
    const low = { ...DEFAULTS, chars: 3000 }
    expect(watch(passage.repeat(3), low).found).toBeUndefined()
    expect(watch(passage.repeat(5), low).found?.unit.length).toBe(1000)
  })

  it('never looks for a unit longer than the longest it is told to', () => {
    const passage = Array.from({ length: 500 }, (_, i) => `v${i * 53 % 499}`).join(' ').slice(0, 2500)
    expect(watch(passage.repeat(6)).found).toBeUndefined()
  })

  it('counts exact repetition only: one character changing in each copy is not a loop', () => {
    const varied = Array.from({ length: 400 }, (_, i) => `Retrying the request (attempt ${i}).`).join(' ')
    expect(watch(varied).found).toBeUndefined()
  })

  it('honours its thresholds when configured', () => {
    const text = 'try again. '.repeat(100)
    expect(watch(text).found).toBeUndefined()
    expect(watch(text, { ...DEFAULTS, chars: 500 }).found?.unit).toBe('try again. ')
  })

  // Property: whatever came before, a unit repeated well past the threshold is found, and no text shorter than the
  // threshold ever is.
  it('finds any unit repeated past the threshold, and nothing in text shorter than it', () => {
    const options = { chars: 600, copies: 4, maxUnit: 200, every: 64 }
    fc.assert(fc.property(fc.string({ maxLength: 300 }), fc.string({ minLength: 1, maxLength: 150 }), (before, unit) => {
      const needed = Math.max(options.chars, options.copies * unit.length)
      const copies = Math.ceil((needed + options.every + 2 * unit.length) / unit.length)
      expect(watch(before + unit.repeat(copies), options).found).toBeDefined()
      expect(watch((before + unit.repeat(copies)).slice(0, options.chars - 1), options).found).toBeUndefined()
    }), { numRuns: 300 })
  })
})

/** The repetition at the tail of `text`, found the slow and obvious way: the shortest period whose span is enough. */
function reference(text: string, { chars, copies, maxUnit }: RepetitionOptions): { period: number; span: number } | undefined {
  const window = text.slice(-Math.max(chars, copies * maxUnit))
  for (let period = 1; period <= Math.min(maxUnit, Math.floor(window.length / copies)); period++) {
    let span = period
    while (span < window.length && window[window.length - 1 - span] === window[window.length - 1 - span + period]) span++
    if (span >= chars && span >= copies * period) return { period, span }
  }
  return undefined
}

describe('the look agrees with the obvious way', () => {
  // Text made of few letters and of stretches that repeat: many periods match for a while, so looks often spend
  // their budget and finish with the Z-array; either way the answer must be the obvious one.
  const options = { chars: 300, copies: 3, maxUnit: 120, every: 1 }
  const piece = fc.oneof(
    fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 40 }),
    fc.tuple(fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 40 }))
      .map(([unit, times]) => unit.repeat(times)),
  )
  it('on every look, for text that nearly repeats', () => {
    fc.assert(fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
      const text = pieces.join('')
      const watcher = createRepetitionWatch(options)
      for (let i = 0; i < text.length; i++) {
        const found = watcher.push(text[i]!)
        const expected = reference(text.slice(0, i + 1), options)
        expect(found === undefined ? undefined : { period: found.unit.length, span: found.span }).toEqual(expected)
        if (found !== undefined) break
      }
    }), { numRuns: 200 })
  })

  it('when many shorter periods match for a while before the one that repeats (a look that spends its budget)', () => {
    // Every look lands at the end of a run of 50 `a`s: periods 1 to 49 each match part of it, over twice the window of
    // comparisons before period 51.
    const watcher = createRepetitionWatch({ ...options, every: 51 })
    expect(watcher.push(`b${'a'.repeat(50)}`.repeat(8))?.unit).toBe(`b${'a'.repeat(50)}`)
  })

  it('after a long run of one character that stops just short', () => {
    const text = `x${'a'.repeat(298)}b${'a'.repeat(298)}`
    const watcher = createRepetitionWatch(options)
    expect(watcher.push(text)).toBeUndefined()
    expect(watcher.push('a'.repeat(3))?.unit).toBe('a')
  })
})

describe('bounded cost', () => {
  it('keeps at most its window, however long the response: 64,000 tokens of text that never repeats', () => {
    const watcher = createRepetitionWatch(DEFAULTS)
    let longest = 0
    for (let i = 0; i < 64_000; i++) {
      expect(watcher.push(` w${(i * 7919) % 100_003}`)).toBeUndefined()
      longest = Math.max(longest, watcher.size)
    }
    expect(longest).toBe(Math.max(DEFAULTS.chars, DEFAULTS.copies * DEFAULTS.maxUnit))
  })
})
