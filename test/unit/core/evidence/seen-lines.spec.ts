import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { allSeen, LINE_NUMBER, numberLength } from '../../../../src/core/evidence/seen-lines.ts'
import { createLruTable } from '../../../../src/core/tables/lru-table.ts'


describe('lines already seen', () => {
  it('read a line number in place as the pattern reads it on the line alone, whatever the line', () => {
    const piece = fc.constantFrom(
      '12', '7', ':', '-', ' ', '\t', '\r', '\v', '\f', '\u2028', '\u00a0', '\u2003', 'Line', 'L', 'a', 'src/app.py', 'é', '\u0001', '.',
      // Lines past the 200 characters a line number is looked for in, and white space that runs up to them (a number
      // or its `-` at the 200th character).
      ' '.repeat(70), 'x'.repeat(60), ' '.repeat(197),
    )
    const line = fc.array(piece, { maxLength: 10, size: 'max' }).map(parts => parts.join(''))
    fc.assert(fc.property(line, fc.array(line, { maxLength: 3 }), (probe, others) => {
      const text = [...others, probe, ...others].join('\n')
      const from = others.join('\n').length + (others.length > 0 ? 1 : 0)
      // The pattern, on the line cut out and its first 200 characters: what a line number can take.
      expect(numberLength(text, from, from + probe.length)).toBe(LINE_NUMBER.exec(probe.slice(0, 200))?.[0].length ?? 0)
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 2_000) })
  })

  it('take lines shown again under other numbers for lines seen, and others for news', () => {
    const seen = createLruTable(64)
    expect(allSeen(seen, '  12\tdef main():\nsrc/app.py:40:    return total\n')).toBe(false)
    expect(allSeen(seen, 'src/app.py-3-def main():\nLine 9: return total')).toBe(true)
    expect(allSeen(seen, 'key-value: return total')).toBe(false)
  })
})
