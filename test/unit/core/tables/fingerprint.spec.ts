import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fingerprint, lineFingerprint, lineFingerprints, withRangeFingerprints } from '../../../../src/core/tables/fingerprint.ts'

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 300)

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
    // One byte string read as Latin-1 or as UTF-16 code units: "AB" and "A\0B\0" share their bytes, not their text.
    ['\u4241', 'AB'],
    ['ab\u0100', 'ab\u0000\u0001'],
    // Lengths around the word and lane boundaries.
    ['abcdefgh', 'abcdefgi'],
    ['abcdefghijklmnopq', 'abcdefghijklmnopr'],
    ['abcdefghijklmnop', 'abcdefghijklmnop\u0000'],
  ])('tells %j from %j', (a, b) => {
    expect(fingerprint(a)).not.toBe(fingerprint(b))
  })

  // Families that share most of their bytes and differ in a few words, some of them 16 bytes apart (the same lane of
  // a four-lane hash): a hash whose lanes never mix, or whose last step folds two lanes into 32 bits, collides here by
  // the dozen (found in review: "key-119457" and "key-130055" once met).
  it.each([
    ['counters', (i: number) => `key-${i}`],
    ['two numbers 16 bytes apart', (i: number) => `aaaaaaaaaaaaaaaa${String(i % 1000).padStart(4, '0')}bbbbbbbbbbbb${String(Math.floor(i / 1000)).padStart(4, '0')}cccc`],
    ['a number in a long line', (i: number) => `${'x'.repeat(37)} count ${i} ${'y'.repeat(29)}`],
  ])('spreads 300 000 %s over distinct values', (_, text) => {
    const seen = new Set<number>()
    for (let i = 0; i < 300_000; i++) seen.add(fingerprint(text(i)))
    expect(seen.size).toBe(300_000)
  }, 60_000)

  it('spreads 100 000 near-identical inputs over distinct values', () => {
    const seen = new Set<number>()
    for (let i = 0; i < 100_000; i++) seen.add(fingerprint(`{"file_path":"src/file-${i}.ts"}`))
    expect(seen.size).toBe(100_000)
  })

  it('is a non-negative safe integer', () => {
    for (const text of ['', 'a', 'x'.repeat(5000), '\u{1F600}', '\uDFFF']) {
      const value = fingerprint(text)
      expect(Number.isSafeInteger(value) && value >= 0).toBe(true)
    }
  })

  it('depends on the text alone, not on how the engine stores it', () => {
    // The same Latin-1 text, once stored one byte per character and once cut out of a two-byte string.
    const one = 'café au lait, '.repeat(20)
    const two = `\u0100${one}`.slice(1)
    expect(two).toBe(one)
    expect(fingerprint(two)).toBe(fingerprint(one))
  })

  // Texts of one-byte characters take the fast path (every alignment of a range), the others fall back to slices.
  it.each([
    ['one-byte', ['a', 'b', ' ', '\n', 'é', '\u0000', '\u00ff']],
    ['mixed', ['a', 'b', ' ', 'é', '\u0100', '—', '\uD83D', '\uDE00']],
  ])('fingerprints ranges of %s text exactly as it fingerprints their slices', (_, chars) => {
    const char = fc.constantFrom(...chars)
    fc.assert(fc.property(fc.array(char, { maxLength: 120, size: 'max' }).map(chars => chars.join('')), fc.nat(), fc.nat(), (text, x, y) => {
      const start = text.length === 0 ? 0 : x % (text.length + 1)
      const end = start + (text.length === 0 ? 0 : y % (text.length - start + 1))
      const expected = fingerprint(text.slice(start, end))
      // Two ranges from one loading of the text.
      expect(withRangeFingerprints(text, range => [range(0, text.length), range(start, end)])).toEqual([fingerprint(text), expected])
    }), { numRuns: RUNS * 10 })
  }, 60_000)

  it('gives the same values for texts larger than the buffer it keeps', () => {
    const big = Array.from({ length: 80_000 }, (_, i) => `line ${i} of a long tool output`).join('\n')
    expect(big.length).toBeGreaterThan(1 << 21)
    const whole = fingerprint(big)
    const pieces = [[0, 100], [1, 5_001], [2_000_001, big.length], [3, big.length - 2]] as const
    const values = withRangeFingerprints(big, range => pieces.map(([start, end]) => range(start, end)))
    expect(values).toEqual(pieces.map(([start, end]) => fingerprint(big.slice(start, end))))
    expect(fingerprint(big)).toBe(whole)
    expect(fingerprint(`${big}.`)).not.toBe(whole)
  })

  it('lends its range fingerprinter only while the callback runs', () => {
    const kept = withRangeFingerprints('plain text', range => range)
    expect(() => kept(0, 5)).toThrow(/only valid while it is lent/)
  })
})

describe('lineFingerprint', () => {
  it.each([
    ['', ' '],
    ['a', 'b'],
    ['ab', 'ba'],
    ['\u0000', ''],
    ['\uD800', '\uD801'],
    // One byte string read as Latin-1 or as UTF-16 code units.
    ['\u4241', 'AB'],
    ['ab\u0100', 'ab\u0000\u0001'],
    // Lengths around the word and step boundaries, the tail's last byte, and trailing zero bytes.
    ['abcd', 'abce'],
    ['abcde', 'abcdf'],
    ['abcdefgh', 'abcdefgi'],
    ['abcdefghi', 'abcdefghj'],
    ['abcdefghijklmno', 'abcdefghijklmnp'],
    ['abcdefgh', 'abcdefgh\u0000'],
    ['abcdefghijklmnop', 'abcdefghijklmnop\u0000'],
  ])('tells %j from %j', (a, b) => {
    expect(lineFingerprint(a)).not.toBe(lineFingerprint(b))
  })

  // The families `fingerprint` is held to, and lines as a search prints them: only a number, eight bytes apart from
  // another, or the file's name, differs.
  it.each([
    ['counters', (i: number) => `key-${i}`],
    ['two numbers 8 bytes apart', (i: number) => `aaaaaaaa${String(i % 1000).padStart(4, '0')}bbbb${String(Math.floor(i / 1000)).padStart(4, '0')}cccc`],
    ['a number in a long line', (i: number) => `${'x'.repeat(37)} count ${i} ${'y'.repeat(29)}`],
    ['search hits', (i: number) => `src/module_${i % 600}.py:${Math.floor(i / 600)}:    return self.value`],
  ])('spreads 300 000 %s over distinct values', (_, text) => {
    const seen = new Set<number>()
    for (let i = 0; i < 300_000; i++) seen.add(lineFingerprint(text(i)))
    expect(seen.size).toBe(300_000)
  }, 60_000)

  it('changes with every byte of a short line, whatever its length', () => {
    for (let length = 1; length <= 40; length++) {
      const line = 'q'.repeat(length)
      const values = new Set([lineFingerprint(line)])
      for (let at = 0; at < length; at++) values.add(lineFingerprint(`${line.slice(0, at)}r${line.slice(at + 1)}`))
      expect(values.size).toBe(length + 1)
    }
  })

  it('is a non-negative safe integer, and depends on the text alone, not on how the engine stores it', () => {
    for (const text of ['', 'a', 'x'.repeat(5000), '\u{1F600}', '\uDFFF']) {
      const value = lineFingerprint(text)
      expect(Number.isSafeInteger(value) && value >= 0).toBe(true)
    }
    const one = 'café au lait, '.repeat(20)
    expect(lineFingerprint(`\u0100${one}`.slice(1))).toBe(lineFingerprint(one))
  })

  it.each([
    ['one-byte', ['a', 'b', ' ', '\n', 'é', '\u0000', '\u00ff']],
    ['mixed', ['a', 'b', ' ', 'é', '\u0100', '—', '\uD83D', '\uDE00']],
  ])('fingerprints ranges of %s text exactly as it fingerprints their slices', (_, chars) => {
    const char = fc.constantFrom(...chars)
    const text = fc.array(char, { maxLength: 120, size: 'max' }).map(chars => chars.join(''))
    fc.assert(fc.property(text, fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }), (text, picks) => {
      const ranges = picks.map(([x, y]) => {
        const start = x % (text.length + 1)
        return [start, start + y % (text.length - start + 1)] as const
      })
      const into = new Float64Array(7).fill(-1)
      lineFingerprints(text, ranges.map(([start]) => start), ranges.map(([, end]) => end), ranges.length, into)
      // The first `count` entries are written, and no others.
      const expected = ranges.map(([start, end]) => lineFingerprint(text.slice(start, end)))
      expect([...into]).toEqual([...expected, ...Array.from({ length: into.length - ranges.length }, () => -1)])
    }), { numRuns: RUNS * 10 })
  }, 60_000)

  it('gives the same values for texts larger than the buffer it keeps', () => {
    const big = Array.from({ length: 80_000 }, (_, i) => `line ${i} of a long tool output`).join('\n')
    expect(big.length).toBeGreaterThan(1 << 21)
    const pieces = [[0, 100], [1, 5_001], [2_000_001, big.length], [3, big.length - 2]] as const
    const into = new Float64Array(pieces.length)
    lineFingerprints(big, pieces.map(([start]) => start), pieces.map(([, end]) => end), pieces.length, into)
    expect([...into]).toEqual(pieces.map(([start, end]) => lineFingerprint(big.slice(start, end))))
  })
})
