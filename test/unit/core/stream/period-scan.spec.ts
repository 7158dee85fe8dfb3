import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nextCandidate, passedOver, span, spanThroughGlitches, zArray, type Scan } from '../../../../src/core/stream/period-scan.ts'

/** `text` as a ring whose last character is at `last`, the way the watch lays its window out. */
function ring(text: string): { ring: Uint16Array; last: number } {
  const codes = Uint16Array.from(text, char => char.charCodeAt(0))
  return { ring: codes, last: codes.length - 1 }
}

const options = { chars: 300, copies: 12, minCopies: 3, minChars: 100, maxUnit: 120, every: 1, edits: 4 }

describe('the scan over periods', () => {
  it('finds the shortest period that repeats long enough, then the next, and says when there is none', () => {
    const text = `xyz${'ab'.repeat(200)}`
    const { ring: codes, last } = ring(text)
    const scan: Scan = { period: 0, match: 0, budget: 10_000 }
    expect(nextCandidate(codes, last, 120, options, [], scan)).toBe('exact')
    expect(scan.period).toBe(2)
    expect(span(codes, last, scan.period, scan.match, text.length)).toBe(400)
    expect(nextCandidate(codes, last, 120, options, [2], scan)).toBe('none')
  })

  it('skips the multiples of a period passed over', () => {
    expect(passedOver([2, 7], 14)).toBe(true)
    expect(passedOver([2, 7], 9)).toBe(false)
  })

  it('stops when its comparisons pass the budget', () => {
    const text = `b${'a'.repeat(50)}`.repeat(8)
    const { ring: codes, last } = ring(text)
    const scan: Scan = { period: 0, match: 0, budget: 100 }
    expect(nextCandidate(codes, last, 120, { ...options, edits: 0 }, [], scan)).toBe('budget')
  })

  it('follows a short unit through a dropped letter now and then, and not through a different word', () => {
    const dropped = Array.from({ length: 60 }, (_, i) => (i % 20 === 10 ? 'ISI-' : 'ISIS-')).join('')
    const { ring: codes, last } = ring(dropped)
    const scan: Scan = { period: 4, match: 0, budget: 10_000 }
    expect(nextCandidate(codes, last, 120, options, [], scan)).toBe('glitches')
    expect(scan.period).toBe(5)
    const { repeats } = spanThroughGlitches(codes, last, 5, scan.match, dropped.length, 4)
    expect(repeats).toBeGreaterThan(dropped.length - 30)
    expect(spanThroughGlitches(codes, last, 5, scan.match, dropped.length, 0).repeats).toBe(scan.match + 5)
  })
})

describe('the Z-array', () => {
  it('gives each place the longest prefix of the text that starts there', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 200 }), (text) => {
      const codes = Uint16Array.from(text, char => char.charCodeAt(0))
      const z = new Int32Array(Math.max(1, text.length))
      zArray(codes, text.length, z)
      for (let i = 1; i < text.length; i++) {
        let match = 0
        while (i + match < text.length && text[match] === text[i + match]) match++
        expect(z[i]).toBe(match)
      }
    }), { numRuns: 300 })
  })
})
