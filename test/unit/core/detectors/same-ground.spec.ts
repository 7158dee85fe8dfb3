import { describe, expect, it } from 'vitest'
import { createSameGroundDetector, type SameGroundOptions } from '../../../../src/core/detectors/same-ground.ts'
import type { CallObservation } from '../../../../src/core/types.ts'
import type { Evidence, SameGroundFinding } from '../../../../src/core/kinds.ts'
import { callOf, createStepper } from '../../../support/observations.ts'

const DEFAULTS: SameGroundOptions = { schedule: { first: 8, every: 5 }, ownedPeriod: 4 }

/**
 * Feed a stream written as letters (each letter one `read` of its own file; `|` moves the progress epoch on; a
 * digit after a letter gives that call another result) and return `position:count` for every finding.
 */
function run(stream: string, options = DEFAULTS): string[] {
  const detector = createSameGroundDetector(options)
  const step = createStepper()
  const out: string[] = []
  let epoch = 0
  let position = 0
  for (const token of stream.replaceAll(' ', '').match(/\|?[A-Za-z]\d?/g) ?? []) {
    if (token.startsWith('|')) epoch++
    const letter = token.replace('|', '')[0]!
    const result = token.length > (token.startsWith('|') ? 2 : 1) ? `changed ${token.at(-1)}` : 'same'
    position++
    const found = detector.observe(step(callOf('read', { file_path: `${letter}.py` }, { result }), epoch))?.finding
    if (found) out.push(`${position}:${found.count}`)
  }
  return out
}

describe('going over the same ground', () => {
  it.each([
    // A six-call viewing cycle: the first lap is new, the second lap's calls are revisits; the eighth one trips.
    ['ABCDEF ABCDEF ABCDEF', ['14:8']],
    // Re-warned every five further revisits while the run goes on.
    ['ABCDEF ABCDEF ABCDEF ABCDEF', ['14:8', '19:13', '24:18']],
    // A drifting loop: the same handful of calls in another order each lap.
    ['ABCDE EDCBA CAEBD', ['13:8']],
    // A new call ends the run; so does a changed result, and so does progress.
    ['ABCDEF ABCD X EFABCD', []],
    ['ABCDEF ABCD A1 EFABCD', []],
    ['ABCDEF ABCD |EFABCD', []],
    // Plain repeats and short cycles of distinct calls are the other detectors' business.
    ['AAAAAAAAAAAA', []],
    ['AB AB AB AB AB AB AB', []],
    ['ABCD ABCD ABCD ABCD', []],
    // A short cycle whose lap repeats a call is not a sequence the other detector reports: it is reported here.
    ['ABAC ABAC ABAC', ['12:8']],
  ])('%s → %j', (stream, expected) => {
    expect(run(stream)).toEqual(expected)
  })

  it('names the calls it keeps going back to, most repeated first', () => {
    const detector = createSameGroundDetector({ ...DEFAULTS, schedule: { first: 5, every: 5 } })
    const step = createStepper()
    const call = (file: string): CallObservation => callOf('read', { file_path: file })
    let found: Evidence<SameGroundFinding> | undefined
    for (const file of ['a', 'b', 'c', 'a', 'b', 'a', 'c', 'a']) found ??= detector.observe(step(call(file)))
    // The loop is made of the calls the run went over.
    expect(found?.calls.toSorted()).toEqual([call('a').key, call('b').key, call('c').key].toSorted())
    expect(found?.finding).toEqual({
      kind: 'same-ground', count: 5,
      calls: [
        { tool: 'read', args: '{"file_path":"a"}', count: 3 },
        { tool: 'read', args: '{"file_path":"c"}', count: 1 },
        { tool: 'read', args: '{"file_path":"b"}', count: 1 },
      ],
    })
  })

  it('forgets everything on reset', () => {
    const detector = createSameGroundDetector(DEFAULTS)
    const step = createStepper()
    for (const letter of 'ABCDEFABCDEF') detector.observe(step(callOf('read', { file_path: letter })))
    detector.reset()
    expect(detector.size()).toEqual({ runWindow: 0 })
  })
})
