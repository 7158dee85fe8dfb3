import { describe, expect, it } from 'vitest'
import { remember, touch } from '../../../../src/core/tables/bounded-map.ts'

describe('a map bounded by least-recently-seen eviction', () => {
  it('touch creates what is missing, marks what it finds most recently seen, and drops the least recently seen beyond the limit', () => {
    const map = new Map<string, number[]>()
    const a = touch(map, 'a', 2, () => [1])
    touch(map, 'b', 2, () => [2])
    expect(touch(map, 'a', 2, () => [3])).toBe(a)
    touch(map, 'c', 2, () => [4])
    expect([...map.keys()]).toEqual(['a', 'c'])
    expect(map.get('a')).toBe(a)
  })

  it('remember sets a key as the most recently seen, and drops the least recently seen beyond the limit', () => {
    const map = new Map([['a', 1], ['b', 2]])
    expect(remember(map, 'c', 3, 2)).toBe(3)
    expect([...map]).toEqual([['b', 2], ['c', 3]])
    map.delete('b')
    remember(map, 'b', 4, 2)
    expect([...map]).toEqual([['c', 3], ['b', 4]])
  })
})
