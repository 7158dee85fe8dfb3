import { describe, expect, it } from 'vitest'
import { createWatchMemory, FoldedWindow, memoryFits } from '../../../../src/core/stream/folded-window.ts'

const options = { chars: 200, copies: 6, minCopies: 3, minChars: 40, maxUnit: 60, every: 7, edits: 4 }

function fed(text: string, memory?: ReturnType<typeof createWatchMemory>): FoldedWindow {
  const window = new FoldedWindow(options, memory)
  for (let at = window.feed(text, 0); at >= 0; at = window.feed(text, at));
  return window
}

describe('the folded window', () => {
  it('keeps the text folded, and its length as streamed', () => {
    const window = fed('Let me  check 12 files.\n\n')
    expect(window.last(window.length)).toBe('Let me check 0 files.\n')
    expect(window.seen).toBe(25)
    expect(window.folded).toBe(22)
  })

  it('takes text up to each look: every 7 folded characters, white space and digits folded away not counted', () => {
    const window = new FoldedWindow(options)
    // a, b, a space, c, d, a space and the 1 of 123.
    expect(window.feed('ab   cd 123 efgh', 0)).toBe(9)
    expect(window.feed('ab   cd 123 efgh', 9)).toBe(-1)
    expect(window.feed('ijklmn', 0)).toBe(2)
    expect(window.seen).toBe(18)
  })

  it('follows code fences: a line that starts with three backticks opens or closes one', () => {
    const window = new FoldedWindow(options)
    const states = ['Some code:\n', '```ts\n', 'const a = "```"\n', '  ```\n', 'after ``` not a fence\n'].map((line) => {
      for (let at = window.feed(line, 0); at >= 0; at = window.feed(line, at));
      return window.fenced
    })
    expect(states).toEqual([false, true, true, false, false])
  })

  it('keeps at most its window, the latest characters', () => {
    const text = Array.from({ length: 100 }, (_, i) => String.fromCharCode(97 + (i % 26)).repeat(5)).join(' ')
    const window = fed(text)
    expect(window.length).toBe(200)
    expect(window.last(200)).toBe(text.slice(-200))
  })

  it('tells copies whose numbers repeat from copies whose numbers change', () => {
    expect(fed('try 7. '.repeat(10)).numbersRepeat(7, 70)).toBe(true)
    expect(fed(Array.from({ length: 10 }, (_, i) => `try ${i}. `).join('')).numbersRepeat(7, 70)).toBe(false)
  })

  it('turns a unit to begin where a sentence, a word or a line does, unless its repetition begins after white space', () => {
    const sentence = 'I\'ll kill the stale process now. '
    expect(fed(`run.${' I\'ll kill the stale process now.'.repeat(8)}`).unitAt(sentence.length, 8 * sentence.length + 1)).toBe(sentence)
    expect(fed('ISIS-'.repeat(12)).unitAt(5, 59)).toBe('ISIS-')
    expect(fed(`Done.\n${'court '.repeat(12)}`).unitAt(6, 72)).toBe('court ')
  })

  it('quotes a unit as streamed: its numbers and spacing as written, a line\'s indentation in front', () => {
    const window = fed(`{\n${'  }\n'.repeat(12)}`)
    expect(window.asStreamed('}\n', 2)).toBe('  }\n')
    expect(fed('Retry  (attempt 12).  '.repeat(12)).asStreamed('Retry (attempt 0). ', 19)).toBe('Retry  (attempt 12).  ')
  })

  it('tells a run of one character that goes on a base64 token from a rule', () => {
    expect(fed(`src="data:image/bmp;base64,Qk02MAAAAAAAADYAAAAo${'A'.repeat(100)}`).continuesEncoding(100)).toBe(true)
    expect(fed(`The letter: ${'A'.repeat(100)}`).continuesEncoding(100)).toBe(false)
  })

  it('counts the run of white space the text ends in, folded away, and ends a read when it reaches its bound', () => {
    expect(fed('words\n \n\n  ').blankRun).toEqual({ chars: 6, breaks: 3 })
    expect(fed('words\n \n\n  x').blankRun).toBeUndefined()
    expect(fed('\n\n\n').blankRun).toEqual({ chars: 3, breaks: 3 })
    expect(fed('one space').blankRun).toBeUndefined()
    // 200 characters or 50 line breaks (a quarter of `chars`), whichever comes first, end a read there.
    const window = new FoldedWindow(options)
    expect(window.feed(`ab${'\n'.repeat(60)}`, 0)).toBe(2 + 50)
    expect(window.blankRun).toEqual({ chars: 50, breaks: 50 })
    expect(new FoldedWindow(options).feed(`ab${' '.repeat(300)}`, 0)).toBe(2 + 200)
  })

  it('gives a range of its folded characters as the model wrote them, and where the fences and numbers are', () => {
    const window = fed('Some  text.\n```\nRetry 12  times.\n')
    expect(window.text(0, 10)).toBe('Some  text.')
    expect(window.fencedAt(2)).toBe(false)
    expect(window.fencedAt(window.folded - 2)).toBe(true)
    const digit = window.last(window.length).indexOf('0')
    expect(window.valueAt(window.folded - window.length + digit)).not.toBe(0)
  })

  it('takes memory made for its options only, and clears what an earlier text left there', () => {
    const memory = createWatchMemory(options)
    expect(memoryFits(memory, options)).toBe(true)
    expect(memoryFits(memory, { ...options, maxUnit: 61 })).toBe(false)
    expect(() => new FoldedWindow({ ...options, maxUnit: 61 }, memory)).toThrow(/other options/)
    fed('x'.repeat(500), memory)
    const window = fed('ab', memory)
    expect(window.last(window.window)).toBe('\0'.repeat(198) + 'ab')
  })
})
