import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { detached } from '../../../../src/core/evidence/detach.ts'

describe('detaching text kept from a result', () => {
  it('gives the same text back, whatever it holds', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
      expect(detached(text)).toBe(text)
    }))
    expect(detached('')).toBe('')
    expect(detached('x'.repeat(100_000).slice(10, 5_000))).toBe('x'.repeat(4_990))
  })
})
