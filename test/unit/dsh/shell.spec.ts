import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { reportsShellFailure, withoutShellFailure } from '../../../src/dsh/shell.ts'

describe('shell failures', () => {
  it.each([
    ['FAIL test/a.spec.ts\n[exit code: 1]', true],
    ['out\n[stderr]\nboom\n[exit code: 127]\n', true],
    ['(no output)\n[timed out after 120000ms]', true],
    ['partial\n[killed by signal: SIGKILL]', true],
    ['all good\n[exit code: 0]', false],
    ['the text mentions [exit code: 1] in the middle\nand goes on', false],
    ['ok', false],
  ])('%j → %s', (text, failed) => {
    expect(reportsShellFailure(text)).toBe(failed)
  })

  /** The definition: a closing line at the very end of the text, white space after it allowed. */
  const CLOSING = /(?:^|\n)\[(?:exit code: -?[1-9]\d*|timed out after [^\]\n]*|killed by signal: [^\]\n]*)\]\s*$/

  it('agrees with the definition on any text built of output, closing lines and white space', () => {
    const piece = fc.constantFrom('out', '\n', ' ', '\t', '\r', '\u00a0', '\u2028', '[exit code: 1]', '[exit code: 0]',
      '[exit code: -2]', '[timed out after 5s]', '[killed by signal: SIGTERM]', ']', '[', 'x]')
    fc.assert(fc.property(fc.array(piece, { maxLength: 12, size: 'max' }).map(parts => parts.join('')), (text) => {
      expect(reportsShellFailure(text)).toBe(CLOSING.test(text))
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 2_000) })
  })

  it.each([
    ['FAIL test/a.spec.ts\n[exit code: 1]', 'FAIL test/a.spec.ts\n'],
    ['out\r\nboom\r\n[exit code: 127]\r\n \n', 'out\r\nboom\r\n'],
    ['[timed out after 5s]', ''],
    ['日本語\n[killed by signal: SIGKILL]\t', '日本語\n'],
  ])('%j printed %j', (text, printed) => {
    expect(reportsShellFailure(text)).toBe(true)
    expect(withoutShellFailure(text)).toBe(printed)
  })
})
