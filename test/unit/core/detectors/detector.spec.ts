import { describe, expect, it } from 'vitest'
import { isDue, type Schedule } from '../../../../src/core/detectors/detector.ts'

/** The counts at which notices fall when a detector gives every notice that is due (`held` counts are held back). */
function noticesOver(schedule: Schedule, upTo: number, held: readonly number[] = []): number[] {
  const given: number[] = []
  for (let count = 1; count <= upTo; count++) {
    if (held.includes(count) || !isDue(schedule, count, given.at(-1) ?? 0)) continue
    given.push(count)
  }
  return given
}

describe('the re-warn schedule', () => {
  it('falls at the first threshold, then every `every` further repeats (the README rule)', () => {
    expect(noticesOver({ first: 6, every: 5 }, 30)).toEqual([6, 11, 16, 21, 26])
    expect(noticesOver({ first: 2, every: 1 }, 4)).toEqual([2, 3, 4])
  })

  it('counts from the last notice given, so a notice held back comes as soon as it may', () => {
    expect(noticesOver({ first: 3, every: 5 }, 20, [3])).toEqual([4, 9, 14, 19])
  })
})
