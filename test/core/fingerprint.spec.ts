import { describe, expect, it } from 'vitest'
import { fingerprint } from '../../src/core/fingerprint.ts'

describe('fingerprint', () => {
  it('is deterministic', () => {
    expect(fingerprint('hello')).toBe(fingerprint('hello'))
  })

  it.each([
    ['', ' '],
    ['a', 'b'],
    ['ab', 'ba'],
    ['{"a":1}', '{"a":2}'],
    ['x'.repeat(1000), 'x'.repeat(1001)],
    ['\u0000', ''],
    ['a\nb', 'a\n\nb'],
    // Lone surrogates: UTF-8 would turn both into U+FFFD; the fingerprint must still tell them apart.
    ['\uD800', '\uD801'],
    ['x\uDC00', 'x\uFFFD'],
  ])('tells %j from %j', (a, b) => {
    expect(fingerprint(a)).not.toBe(fingerprint(b))
  })

  it('spreads 100 000 near-identical inputs over distinct values', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 100_000; i++) seen.add(fingerprint(`{"file_path":"src/file-${i}.ts"}`))
    expect(seen.size).toBe(100_000)
  })
})
