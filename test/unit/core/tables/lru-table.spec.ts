import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createLruTable, MAX_LIMIT } from '../../../../src/core/tables/lru-table.ts'

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 300)

/** The definition: a Map in recency order, oldest first. */
function model(limit: number) {
  const keys = new Map<number, true>()
  return {
    has: (key: number) => keys.has(key),
    use(key: number): boolean {
      const added = !keys.delete(key)
      keys.set(key, true)
      if (keys.size > limit) keys.delete(keys.keys().next().value!)
      return added
    },
    clear: () => keys.clear(),
    get size() { return keys.size },
    keys: () => [...keys.keys()],
  }
}

describe('bounded fingerprint table', () => {
  it('keeps keys in their slots and forgets the least recently used first', () => {
    const table = createLruTable(2)
    const a = table.use(10)
    expect(table.added).toBe(true)
    const b = table.use(20)
    expect(table.use(10)).toBe(a)
    expect(table.added).toBe(false)
    // 20 is now the least recently used: 30 takes its slot.
    expect(table.use(30)).toBe(b)
    expect(table.added).toBe(true)
    expect(table.find(20)).toBe(-1)
    expect(table.find(10)).toBe(a)
    expect(table.size).toBe(2)
  })

  it('does not count a lookup as a use', () => {
    const table = createLruTable(2)
    table.use(1)
    table.use(2)
    table.find(1)
    table.use(3)
    expect(table.find(1)).toBe(-1)
    expect(table.find(2)).not.toBe(-1)
  })

  // Keys that share their low 32 bits all land in one bucket: long probe runs, and evictions from their middle.
  const key = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }).map(k => k * 2 ** 32 + 7))
  const op = fc.oneof(
    { weight: 8, arbitrary: key.map(k => ['use', k] as const) },
    { weight: 3, arbitrary: key.map(k => ['find', k] as const) },
    { weight: 1, arbitrary: fc.constant(['clear', 0] as const) },
  )

  it('agrees with the definition on any sequence of uses, lookups and clears', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.array(op, { maxLength: 300, size: 'max' }), (limit, ops) => {
      const table = createLruTable(limit)
      const reference = model(limit)
      const slots = new Map<number, number>()
      for (const [kind, k] of ops) {
        if (kind === 'clear') {
          table.clear()
          reference.clear()
          slots.clear()
        } else if (kind === 'find') {
          expect(table.find(k)).toBe(reference.has(k) ? slots.get(k) : -1)
        } else {
          const slot = table.use(k)
          const added = reference.use(k)
          expect(table.added).toBe(added)
          if (!added) expect(slot).toBe(slots.get(k))
          slots.set(k, slot)
          for (const gone of [...slots.keys()].filter(other => !reference.has(other))) slots.delete(gone)
        }
        expect(table.size).toBe(reference.size)
        // Every key held has a slot of its own, below the bound.
        const held = reference.keys().map(k2 => table.find(k2))
        expect(new Set(held).size).toBe(held.length)
        for (const slot of held) expect(slot >= 0 && slot < limit).toBe(true)
      }
    }), { numRuns: RUNS })
  }, 120_000)

  it('fills a table of the largest size and forgets its least recently used first (slot numbers are 16-bit)', () => {
    const table = createLruTable(MAX_LIMIT)
    const key = (i: number) => i * 2 ** 21 + 12_345
    const slots = new Set<number>()
    for (let i = 0; i < MAX_LIMIT; i++) slots.add(table.use(key(i)))
    expect(slots.size).toBe(MAX_LIMIT)
    expect(Math.min(...slots)).toBe(0)
    expect(Math.max(...slots)).toBe(MAX_LIMIT - 1)
    expect(table.find(key(MAX_LIMIT - 1))).toBe(MAX_LIMIT - 1)
    // The first key, used again, is the most recent; the second is now the least recent, and gives its slot up.
    expect(table.use(key(0))).toBe(0)
    expect(table.use(key(MAX_LIMIT))).toBe(1)
    expect(table.find(key(1))).toBe(-1)
    for (let i = 2; i < MAX_LIMIT; i++) table.use(key(MAX_LIMIT + i))
    expect(table.find(key(0))).toBe(0)
    expect(table.use(key(3 * MAX_LIMIT))).toBe(0)
    expect(table.size).toBe(MAX_LIMIT)
  })

  it('refuses a size it cannot hold', () => {
    expect(() => createLruTable(MAX_LIMIT + 1)).toThrow(RangeError)
    expect(() => createLruTable(0)).toThrow(RangeError)
  })
})
