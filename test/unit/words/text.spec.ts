import { describe, expect, it } from 'vitest'
import { clip, cut, fit, oneLine } from '../../../src/words/text.ts'

describe('text cut to a width', () => {
  it('never splits a surrogate pair, and marks what it left out', () => {
    expect(cut('a😀b', 2)).toBe('a')
    expect(fit('abcdef', 4)).toBe('abc…')
    expect(clip('abcdef', 3)).toBe('abc… (+3 more chars)')
    expect(clip('abc', 3)).toBe('abc')
  })

  it('puts a block on one line, white space folded, and shows a block of nothing but white space escaped', () => {
    expect(oneLine('a\n\n  b', 10, 6)).toBe('a b')
    expect(oneLine('abcdef', 3, 6)).toBe('abc…')
    // A run of line breaks (a runaway of one newline a token) reads as what it is, not as nothing.
    expect(oneLine('\n', 40, 1)).toBe('\\n')
    expect(oneLine('\t \n', 40, 3)).toBe('\\t␠\\n')
    expect(oneLine('\n'.repeat(100), 10, 100)).toBe('\\n\\n\\n\\n…')
  })
})
