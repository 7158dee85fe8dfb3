import { describe, expect, it } from 'vitest'
import { createRereadingDetector, type RereadingOptions } from '../../../../src/core/detectors/rereading.ts'
import type { CallObservation } from '../../../../src/core/types.ts'
import type { RereadingFinding } from '../../../../src/core/kinds.ts'
import { callOf, play, PROGRESS } from '../../../support/observations.ts'

const DEFAULTS: RereadingOptions = { schedule: { first: 4, every: 5 }, among: 6 }

/** A `read` of lines `first` to `last` of `file`. */
const window = (first: number, last: number, file = 'src/parser.py'): CallObservation => callOf('read', { file_path: file, offset: first, limit: last - first + 1 }, {
  kind: 'read', window: { file, first, last }, result: `lines ${first}-${last} of ${file}`,
})

/** Feed the calls (`PROGRESS` moves the progress epoch on) and return `position:count` of every finding, and the last one. */
function findings(
  calls: readonly (CallObservation | typeof PROGRESS)[], options = DEFAULTS,
): { at: string[]; last: RereadingFinding | undefined } {
  const found = play(createRereadingDetector(options), calls)
  return { at: found.map(({ at, found }) => `${at}:${found.finding.count}`), last: found.at(-1)?.found.finding }
}

/** Windows of `size` lines from `from`, `count` of them, going down (`step` < 0) or up. */
const pass = (from: number, count: number, step: number, size = 20, file?: string): CallObservation[] =>
  Array.from({ length: count }, (_, i) => window(from + i * step, from + i * step + size - 1, file))

describe('paging over old ground', () => {
  it('tells windows read backwards, then forwards over the same ranges, at the fourth that goes over old ground', () => {
    // Backwards 200 → 100, then forwards from 100: the first forward window is the one just read (a pass turning
    // round), the next four go over ground read four, six, eight and ten windows before.
    const { at, last } = findings([...pass(200, 6, -20), ...pass(100, 6, 20)])
    expect(at).toEqual(['11:4'])
    expect(last).toEqual({ kind: 'rereading', file: 'src/parser.py', count: 4, ranges: [{ first: 120, last: 199 }] })
  })

  it('tells a pass replayed window for window once: the exact detectors tell the rest of that loop', () => {
    const scan = pass(1000, 8, 100, 51, 'sympy/sets/sets.py')
    expect(findings([...scan, ...scan, ...scan]).at).toEqual(['12:4'])
  })

  it('tells a replay that drifts every five more windows over old ground', () => {
    // Each pass shifted by a few lines: no window is an exact repeat, each is mostly old ground.
    const shifted = (by: number): CallObservation[] => pass(1000 + by, 8, 100, 51, 'sympy/sets/sets.py')
    expect(findings([...shifted(0), ...shifted(5), ...shifted(10)]).at).toEqual(['12:4', '17:9', '22:14'])
  })

  it('makes the loop of the windows that went over old ground', () => {
    const calls = [...pass(200, 6, -20), ...pass(100, 6, 20)]
    expect(play(createRereadingDetector(DEFAULTS), calls)[0]?.found.calls).toEqual(calls.slice(7, 11).map(call => call.key))
  })

  describe('traps: one pass, never told', () => {
    it.each<[string, (CallObservation | typeof PROGRESS)[]]>([
      ['one pass through a long file in windows', pass(1, 40, 50, 50)],
      ['one pass whose windows share a line with the one before', pass(1, 40, 49, 50)],
      ['one pass sliding by half a window', pass(1, 40, 10, 20)],
      ['an aimless pass over new ground', [600, 568, 533, 726, 620, 650, 500, 450, 400, 350, 300, 250, 200].map(at => window(at, at + 20))],
      ['reading a function closely after skimming the file around it', [window(1000, 1200), ...pass(1914, 4, 50, 50), window(1200, 1400), ...pass(1000, 4, 50, 50)]],
      ['one spot read again and again before an edit (the identical-call detector\'s when exact)', [window(580, 590), window(575, 585), window(575, 585), window(580, 590), window(575, 590), window(575, 600)]],
      ['windows of different files', ['a', 'b', 'c', 'd', 'e', 'f'].flatMap(file => pass(1, 2, 50, 50, `src/${file}.py`))],
      ['the same windows after each change', [1, 2, 3, 4, 5].flatMap(() => [...pass(1, 3, 20), PROGRESS])],
    ])('%s', (_, calls) => {
      expect(findings(calls).at).toEqual([])
    })
  })

  it('forgets every window at progress: a file that may have changed is worth reading again', () => {
    expect(findings([...pass(200, 6, -20), PROGRESS, ...pass(100, 6, 20)]).at).toEqual([])
  })

  it('ignores windows that failed (a range past the end of the file)', () => {
    const failed = (first: number): CallObservation => ({ ...window(first, first + 19), failed: true })
    expect(findings([...pass(1, 4, 20), failed(1), failed(21), failed(41), failed(61)]).at).toEqual([])
  })
})
