import { describe, expect, it } from 'vitest'
import { APPEND, DIGITS, Folder, foldText, REWRITE, SKIP } from '../../../../src/core/stream/fold.ts'

describe('folding text for comparing copies', () => {
  it.each([
    ['Let me  check.', 'Let me check.'],
    ['a\t \u00a0b', 'a b'],
    ['one  \n   two', 'one\ntwo'],
    ['one\n\n\ntwo', 'one\ntwo'],
    ['  \n  indented', 'indented'],
    ['attempt 7/120', 'attempt 0/0'],
    ['v1.2.3', 'v0.0.0'],
    ['2026-11-30T10:00:01Z', '0-0-0T0:0:0Z'],
    ['', ''],
    ['\n \n', ''],
  ])('%j folds to %j', (text, folded) => {
    expect(foldText(text)).toBe(folded)
  })

  it('folds a megabyte in one call, in slices that do not overflow the stack', () => {
    expect(foldText('ab '.repeat(400_000))).toBe('ab '.repeat(400_000))
  })

  it('says what it did with each character, and keeps beside a run of digits its value', () => {
    const folder = new Folder()
    const steps = 'a 12 3'.split('').map(char => [folder.next(char.charCodeAt(0)), String.fromCharCode(folder.code), folder.value] as const)
    expect(steps.map(([step]) => step)).toEqual([APPEND, APPEND, APPEND, REWRITE, APPEND, APPEND])
    expect(steps.map(([, code]) => code).join('')).toBe('a 00 0')
    // A run's value changes with its digits; other characters have none.
    expect(steps[2]![2]).not.toBe(steps[3]![2])
    expect(steps[3]![2]).not.toBe(steps[5]![2])
    expect(steps[0]![2]).toBe(0)
    expect(folder.code).toBe(DIGITS)
  })

  it('skips white space after white space, and turns a space into the line break that follows it', () => {
    const folder = new Folder()
    expect(folder.next(0x61)).toBe(APPEND)
    expect(folder.next(0x20)).toBe(APPEND)
    expect(folder.next(0x20)).toBe(SKIP)
    expect(folder.next(0x0a)).toBe(REWRITE)
    expect(folder.code).toBe(0x0a)
    expect(folder.next(0x0a)).toBe(SKIP)
  })
})
