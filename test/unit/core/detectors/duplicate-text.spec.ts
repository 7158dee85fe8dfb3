import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDuplicateTextDetector, forEachBlock, type DuplicateTextOptions, type TextMessage } from '../../../../src/core/detectors/duplicate-text.ts'

const BLOCK = 'Remember: run the linter and the full test suite before you report that the task is complete.'
const OTHER = 'The build cache lives in .cache/build and may be removed safely whenever the disk is nearly full.'

const defaults: DuplicateTextOptions = {
  threshold: 3, windowMs: 120_000, cooldownMs: 30_000, minChars: 80, maxTracked: 2048, maxMessageIds: 1024, headChars: 200,
}

let seq = 0
const msg = (text: string, source = 'plugin hooks', id = `m${++seq}`): TextMessage => ({ id, source, texts: [text] })

function blocks(text: string): string[] {
  const out: string[] = []
  forEachBlock(text, (start, end) => out.push(text.slice(start, end)))
  return out
}

describe('splitting text into blocks', () => {
  it.each([
    ['one', ['one']],
    ['one\ntwo', ['one\ntwo']],
    ['one\n\ntwo', ['one', 'two']],
    ['\n\n  one\n \t \ntwo\n\n\n', ['  one', 'two']],
    ['', []],
    ['\n \n', []],
    ['\none', ['one']],
    [' \none\n', ['one']],
    ['one  \n\t\n', ['one  ']],
    ['\v\f\n\none\n\n\n\ntwo\n \n', ['one', 'two']],
    ['one\n\u00a0\ntwo', ['one\n\u00a0\ntwo']],
  ])('%j → %j', (text, expected) => {
    expect(blocks(text)).toEqual(expected)
  })

  /** The definition, line by line: what the separator-based splitter must agree with. */
  function byLines(text: string): string[] {
    const out: string[] = []
    let run: string[] = []
    for (const line of text.split('\n')) {
      if (/^[ \t\v\f]*$/.test(line)) {
        if (run.length > 0) out.push(run.join('\n'))
        run = []
      } else {
        run.push(line)
      }
    }
    if (run.length > 0) out.push(run.join('\n'))
    return out
  }

  it('agrees with the line-by-line definition on any text of lines, blanks and breaks', () => {
    const piece = fc.constantFrom('\n', '\n', ' ', '\t', '\v', '\f', 'a', 'bc', '\u00a0', '\u2028', 'x y')
    fc.assert(fc.property(fc.array(piece, { maxLength: 40, size: 'max' }).map(parts => parts.join('')), (text) => {
      expect(blocks(text)).toEqual(byLines(text))
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 2_000) })
  })
})

describe('duplicate text', () => {
  /** Observe each step's messages at the given times; return the step indexes (0-based) that produced a finding. */
  function steps(input: [at: number, messages: TextMessage[]][], options: Partial<DuplicateTextOptions> = {}): number[] {
    const detector = createDuplicateTextDetector({ ...defaults, ...options })
    return input.flatMap(([at, messages], index) => detector.observe({ at, messages }) ? [index] : [])
  }

  it.each<[string, [number, TextMessage[]][], number[]]>([
    ['the third occurrence within the window', [[0, [msg(BLOCK)]], [1000, [msg(BLOCK)]], [2000, [msg(BLOCK)]]], [2]],
    ['two are not enough', [[0, [msg(BLOCK)]], [1000, [msg(BLOCK)]]], []],
    ['spread beyond the window', [[0, [msg(BLOCK)]], [70_000, [msg(BLOCK)]], [140_001, [msg(BLOCK)]]], []],
    ['the last three within the window count', [[0, [msg(BLOCK)]], [100_000, [msg(BLOCK)]], [130_000, [msg(BLOCK)]], [140_000, [msg(BLOCK)]]], [3]],
    ['short blocks are ignored', [[0, [msg('short')]], [1, [msg('short')]], [2, [msg('short')]]], []],
    ['different blocks do not add up', [[0, [msg(BLOCK)]], [1, [msg(OTHER)]], [2, [msg(BLOCK)]]], []],
    ['three times inside one message', [[0, [msg(`${BLOCK}\n\n${BLOCK}\n\n${BLOCK}`)]]], [0]],
    ['across messages of one step', [[0, [msg(BLOCK), msg(BLOCK), msg(BLOCK)]]], [0]],
    ['a replayed message id never counts twice', [[0, [msg(BLOCK, 'plugin a', 'same')]], [1, [msg(BLOCK, 'plugin a', 'same')]], [2, [msg(BLOCK, 'plugin a', 'same')]]], []],
    ['line endings do not matter', [[0, [msg(BLOCK.replaceAll(' ', '\n'))]], [1, [msg(BLOCK.replaceAll(' ', '\r\n'))]], [2, [msg(BLOCK.replaceAll(' ', '\r'))]]], [2]],
    ['quiet during the cooldown, and escalation needs fresh evidence', [
      [0, [msg(BLOCK)]], [1, [msg(BLOCK)]], [2, [msg(BLOCK)]], // notice
      [3, [msg(BLOCK)]], [4, [msg(BLOCK)]], [5, [msg(BLOCK)]], // three more, but within the cooldown
      [30_002, [msg(BLOCK)]], // after the cooldown: the last three (4, 5, 30 002) are within the window
    ], [2, 6]],
    ['after the cooldown, old evidence alone does not trip', [[0, [msg(BLOCK)]], [1, [msg(BLOCK)]], [2, [msg(BLOCK)]], [40_000, [msg(BLOCK)]]], [2]],
  ])('%s', (_, input, expected) => {
    expect(steps(input)).toEqual(expected)
  })

  it('reports count, sources, head and length', () => {
    const detector = createDuplicateTextDetector({ ...defaults, headChars: 10 })
    detector.observe({ at: 0, messages: [msg(BLOCK, 'plugin hooks-claude-code')] })
    detector.observe({ at: 1, messages: [msg(BLOCK, 'subagent-report')] })
    const found = detector.observe({ at: 2, messages: [msg(`intro that is long enough to count as a block of its own, but is not repeated\n\n${BLOCK}`, 'plugin hooks-claude-code')] })
    expect(found).toEqual({
      kind: 'duplicate-text',
      threshold: 3,
      windowMs: 120_000,
      blocks: [{ count: 3, sources: ['plugin hooks-claude-code', 'subagent-report'], head: BLOCK.slice(0, 10), length: BLOCK.length }],
    })
  })

  it('reports every block that tripped in one step', () => {
    const detector = createDuplicateTextDetector(defaults)
    const both = `${BLOCK}\n\n${OTHER}`
    detector.observe({ at: 0, messages: [msg(both)] })
    detector.observe({ at: 1, messages: [msg(both)] })
    expect(detector.observe({ at: 2, messages: [msg(both)] })?.blocks).toHaveLength(2)
  })

  it('holds nothing before its first message, and may be reset before it', () => {
    const detector = createDuplicateTextDetector(defaults)
    expect(detector.size()).toEqual({ blocks: 0, messageIds: 0 })
    detector.reset()
    expect(detector.size()).toEqual({ blocks: 0, messageIds: 0 })
    detector.observe({ at: 0, messages: [msg(BLOCK)] })
    detector.observe({ at: 1, messages: [msg(BLOCK)] })
    expect(detector.observe({ at: 2, messages: [msg(BLOCK)] })?.blocks).toHaveLength(1)
    expect(detector.size()).toEqual({ blocks: 1, messageIds: 3 })
  })

  it('forgets blocks and message ids on reset', () => {
    const detector = createDuplicateTextDetector(defaults)
    detector.observe({ at: 0, messages: [msg(BLOCK, 'x', 'id-1')] })
    detector.observe({ at: 1, messages: [msg(BLOCK)] })
    detector.reset()
    expect(detector.observe({ at: 2, messages: [msg(BLOCK)] })).toBeUndefined()
    // The id seen before the reset counts again after it.
    expect(detector.observe({ at: 3, messages: [msg(BLOCK, 'x', 'id-1')] })).toBeUndefined()
    expect(detector.observe({ at: 4, messages: [msg(BLOCK)] })).toBeDefined()
  })

  it('keeps at most maxTracked blocks, forgetting the least recently seen first', () => {
    const detector = createDuplicateTextDetector({ ...defaults, maxTracked: 2 })
    const a = BLOCK
    const b = OTHER
    const c = `${BLOCK} (third variant, also long enough)`
    detector.observe({ at: 0, messages: [msg(a), msg(a)] })
    detector.observe({ at: 1, messages: [msg(b)] })
    detector.observe({ at: 2, messages: [msg(c)] }) // evicts a
    expect(detector.observe({ at: 3, messages: [msg(a)] })).toBeUndefined()
  })

  it('keeps at most maxMessageIds ids: an evicted id counts again', () => {
    const detector = createDuplicateTextDetector({ ...defaults, maxMessageIds: 1 })
    detector.observe({ at: 0, messages: [msg(BLOCK, 'x', 'first')] })
    detector.observe({ at: 1, messages: [msg('unrelated text', 'x', 'second')] }) // evicts "first"
    detector.observe({ at: 2, messages: [msg(BLOCK, 'x', 'first')] })
    expect(detector.observe({ at: 3, messages: [msg(BLOCK)] })).toBeDefined()
  })
})
