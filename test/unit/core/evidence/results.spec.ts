import { describe, expect, it } from 'vitest'
import { createRecentResults, resultOf, type ResultRef } from '../../../../src/core/evidence/results.ts'

/** Which of `results` still have their text kept. */
const kept = (results: readonly ResultRef[]): boolean[] => results.map(result => result.text !== undefined)

describe('the window of recent results', () => {
  it('keeps nothing before the first result', () => {
    expect(createRecentResults(4, 100).size()).toEqual({ results: 0, chars: 0 })
  })

  it('lets the oldest texts go first over the character bound, before the count bound is reached', () => {
    const recent = createRecentResults(4, 10)
    const results = ['aaaa', 'bbbb', 'cccccc'].map(resultOf)
    for (const result of results) recent.remember(result)
    expect(kept(results)).toEqual([false, true, true])
    expect(recent.size()).toEqual({ results: 2, chars: 10 })
  })

  it('lets the oldest text go at the count bound, round and round', () => {
    const recent = createRecentResults(2, 100)
    const results = ['a', 'b', 'c', 'd', 'e'].map(resultOf)
    for (const result of results) recent.remember(result)
    expect(kept(results)).toEqual([false, false, false, true, true])
    expect(recent.size()).toEqual({ results: 2, chars: 2 })
  })

  it('lets texts go at both bounds at once, oldest first, once the ring has come round', () => {
    const recent = createRecentResults(3, 10)
    const results = ['aaa', 'bbb', 'ccc', 'ddd', 'eeeeeeee'].map(resultOf)
    for (const result of results) recent.remember(result)
    // d pushed a out by count; e took b's place, and its characters pushed c and d out.
    expect(kept(results)).toEqual([false, false, false, false, true])
    expect(recent.size()).toEqual({ results: 1, chars: 8 })
  })

  it('keeps empty and wide-character texts by their length in UTF-16 code units', () => {
    const recent = createRecentResults(4, 6)
    const results = ['', '日本', '😀😀', 'é'].map(resultOf)
    for (const result of results) recent.remember(result)
    // The emoji take two units each: 0 + 2 + 4 = 6; one unit more lets the two oldest texts go.
    expect(kept(results)).toEqual([false, false, true, true])
    expect(recent.size()).toEqual({ results: 2, chars: 5 })
  })

  it('normalizes a text too large to keep at once, and keeps nothing of it', () => {
    const recent = createRecentResults(4, 8)
    const large = resultOf('line 1\r\nline 2\r\n')
    recent.remember(large)
    expect(large.text).toBeUndefined()
    expect(large.norm).toBeTypeOf('number')
    expect(recent.size()).toEqual({ results: 0, chars: 0 })
  })

  it('starts afresh after a clear, and fills its ring from the start again', () => {
    const recent = createRecentResults(2, 100)
    const before = ['a', 'b', 'c'].map(resultOf)
    for (const result of before) recent.remember(result)
    recent.clear()
    expect(kept(before)).toEqual([false, false, false])
    expect(recent.size()).toEqual({ results: 0, chars: 0 })
    const after = ['dd', 'ee', 'ff'].map(resultOf)
    for (const result of after) recent.remember(result)
    expect(kept(after)).toEqual([false, true, true])
    expect(recent.size()).toEqual({ results: 2, chars: 4 })
  })
})
