import { describe, expect, it } from 'vitest'
import { foldText } from '../../../../src/core/stream/fold.ts'
import { isEncoded, numbersCarryNoContent, unitKind } from '../../../../src/core/stream/unit-kind.ts'

describe('what a repeated unit is', () => {
  it.each([
    // Text: what a runaway repeats.
    ['court ', 'text'],
    ['Yes,\n', 'text'],
    ['court, ', 'text'],
    ['I\'ll kill the stale process now. ', 'text'],
    ['  }\n', 'text'],
    ['=====\n', 'text'],
    ['<s>', 'text'],
    ['ny', 'text'],
    // A run of symbols or of one character within a line: rules and banners.
    ['=', 'symbols'],
    [' =', 'symbols'],
    ['*-', 'symbols'],
    ['/', 'symbols'],
    ['x', 'symbols'],
    ['aaaa', 'symbols'],
    [' ', 'symbols'],
    // A table's border or empty cells within a line: a rule drawn long.
    ['| --- ', 'symbols'],
    ['|     ', 'symbols'],
    ['+-----', 'symbols'],
    ['0 ', 'symbols'],
    // Data: encodings, fields of values, a row of numbers; as lines, a table's borders and empty cells, a column of
    // numbers, a matrix's rows.
    ['/wD/AP8A', 'data'],
    ['gICA', 'data'],
    ['ff00', 'data'],
    ['0,', 'data'],
    ['"N/A",', 'data'],
    ['NULL;', 'data'],
    ['0,0,0,0\n', 'data'],
    ['0.5 ', 'data'],
    ['-1.25 ', 'data'],
    ['| --- |\n', 'data'],
    ['|     |\n', 'data'],
    ['+-----+\n', 'data'],
    ['7\n', 'data'],
    ['0.0 0.0 0.0\n', 'data'],
  ])('%j is %s', (unit, kind) => {
    expect(unitKind(foldText(unit) + (unit.endsWith('\n') ? '\n' : unit.endsWith(' ') ? ' ' : ''))).toBe(kind)
  })

  it('reads base64 and hex by their alphabet and a mark of encoding, not a word of letters', () => {
    expect(isEncoded('Qk02MAAAAAAAADYAAAAo')).toBe(true)
    expect(isEncoded('deadbeef00')).toBe(true)
    expect(isEncoded('AbC')).toBe(true)
    expect(isEncoded('court')).toBe(false)
    expect(isEncoded('two words')).toBe(false)
  })

  it.each([
    ['Retrying the request (attempt 0).', true],
    ['tell me something about you？<|im_end|>\n<|im_start|>assistant0\n', true],
    ['retry(0);', false],
    ['{ id: 0 }', false],
    ['\'account-0\'', false],
    ['| row 0 |', false],
    ['port: 0\n', false],
    ['  - name: metrics-0\n', false],
  ])('numbers changing in %j carry no content: %s', (unit, prose) => {
    expect(numbersCarryNoContent(unit)).toBe(prose)
  })
})
