import { describe, expect, it } from 'vitest'
import { createCycleDetector, type CycleOptions } from '../../../../src/core/detectors/cycle.ts'
import type { CycleFinding } from '../../../../src/core/kinds.ts'
import { callOf, createStepper } from '../../../support/observations.ts'

const options = (maxLength: number, laps: number, reWarnEvery: number): CycleOptions =>
  ({ maxLength, schedule: { first: laps, every: reWarnEvery }, progressAware: true })
const DEFAULTS = options(4, 3, 5)

/** A detector fed through a stepper, as the brake state feeds it. */
function detectorOf(options: CycleOptions) {
  const detector = createCycleDetector(options)
  const step = createStepper()
  return { ...detector, observe: (call: Parameters<typeof step>[0]) => detector.observe(step(call)) }
}

/**
 * Feed a call stream written as letters (each letter one call identity; the tool is named after it) and return
 * `position:laps:cycle` for every finding.
 */
function run(stream: string, options = DEFAULTS): string[] {
  const detector = detectorOf(options)
  const out: string[] = []
  Array.from(stream.replaceAll(' ', '')).forEach((letter, index) => {
    const found: CycleFinding | undefined = detector.observe(callOf(letter, { q: letter }))?.finding
    if (found) out.push(`${index + 1}:${found.laps}:${found.tools.join('')}`)
  })
  return out
}

describe('sequence loops', () => {
  it.each([
    // grep → curl → read → bash ×3 is reported at the end of the third lap.
    ['ABCD ABCD ABCD', ['12:3:ABCD']],
    ['ABCD ABCD ABC', []],
    // Every period from 2 to sequenceLength.
    ['AB AB AB', ['6:3:AB']],
    ['ABC ABC ABC', ['9:3:ABC']],
    // A lap may start anywhere: the cycle is named from the oldest call of the last lap.
    ['X BCA BCA BCA', ['10:3:BCA']],
    // Plain repeats are the identical-call detector's business, not a sequence.
    ['AAAAAAAAAAAA', []],
    // A cycle whose calls are not pairwise distinct is not reported as that cycle (A B A C is not a 4-cycle).
    ['ABAC ABAC ABAC', []],
    // Longer than sequenceLength: not looked for.
    ['ABCDE ABCDE ABCDE', []],
    // A broken run starts over.
    ['AB AB X AB AB', []],
    ['AB AB X AB AB AB', ['11:3:AB']],
    // Throttled: again after callReWarnEvery further laps, never on every call.
    ['AB AB AB AB AB AB AB AB', ['6:3:AB', '16:8:AB']],
    // The shortest period only: A B A B is reported as a 2-cycle, never again as a 4-cycle.
    ['AB AB AB AB AB AB', ['6:3:AB']],
  ])('%s → %j', (stream, expected) => {
    expect(run(stream)).toEqual(expected)
  })

  it.each([
    [options(2, 2, 1), 'AB AB AB', ['4:2:AB', '6:3:AB']],
    [options(16, 3, 5), 'ABCDEFGHIJKLMNOP'.repeat(3), ['48:3:ABCDEFGHIJKLMNOP']],
    [options(3, 3, 5), 'ABCD ABCD ABCD', []],
  ])('%j: %s → %j', (options, stream, expected) => {
    expect(run(stream, options)).toEqual(expected)
  })

  it('says which calls the cycle is made of: the keys of its lap, oldest first', () => {
    const detector = detectorOf(DEFAULTS)
    const calls = ['A', 'B', 'C'].map(letter => callOf(letter))
    let found
    for (let lap = 0; lap < 3; lap++) for (const call of calls) found = detector.observe(call) ?? found
    expect(found?.calls).toEqual(calls.map(call => call.key))
  })

  it('arguments are part of identity: a new query is a new sequence', () => {
    const detector = detectorOf(DEFAULTS)
    let found: CycleFinding | undefined
    for (let lap = 0; lap < 3; lap++) {
      for (const tool of ['grep', 'read']) found ??= detector.observe(callOf(tool, { q: tool === 'grep' ? lap : 0 }))?.finding
    }
    expect(found).toBeUndefined()
  })

  it('forgets the stream on reset', () => {
    const detector = detectorOf(DEFAULTS)
    const feed = (letters: string): CycleFinding | undefined => {
      let found: CycleFinding | undefined
      for (const letter of letters) found ??= detector.observe(callOf(letter))?.finding
      return found
    }
    expect(feed('ABABA')).toBeUndefined()
    detector.reset()
    // Without the reset, this B would complete the third lap.
    expect(feed('B')).toBeUndefined()
    expect(feed('XABABA')).toBeUndefined()
    expect(feed('B')).toMatchObject({ laps: 3, tools: ['A', 'B'] })
  })
})
