import { describe, expect, it } from 'vitest'
import { createSameErrorDetector } from '../../../../src/core/detectors/same-error.ts'
import type { CallStep } from '../../../../src/core/types.ts'
import { callOf } from '../../../support/observations.ts'

const ENOENT = 'Error: ENOENT: no such file or directory, open'

/** A call of `tool` with `args`; `error` makes it a failure with that error, about a path of its own. */
function attempt(tool: string, args: unknown, error?: string, epoch = 0): CallStep {
  const failed = error !== undefined
  // Results play no part here: every step has version 0.
  return { call: callOf(tool, args, failed ? { failed, errorLine: `${error} 'src/${String(args)}.ts'` } : {}), epoch, version: 0, revisit: false, slot: 0, fresh: false }
}

describe('same error, different arguments', () => {
  function noticesAt(calls: CallStep[], threshold = 3, reWarnEvery = 5): number[] {
    const detector = createSameErrorDetector({
      schedule: { first: threshold, every: reWarnEvery }, inputSchedule: { first: 5, every: reWarnEvery }, maxTracked: 8,
    })
    return calls.flatMap((call, index) => detector.observe(call) ? [index + 1] : [])
  }

  it.each<[string, CallStep[], number[]]>([
    ['three failures with three argument sets', [attempt('read', 'a', ENOENT), attempt('read', 'b', ENOENT), attempt('read', 'c', ENOENT)], [3]],
    ['the same arguments every time are the identical-call detector\'s', [attempt('read', 'a', ENOENT), attempt('read', 'a', ENOENT), attempt('read', 'a', ENOENT)], []],
    ['two argument sets are enough', [attempt('read', 'a', ENOENT), attempt('read', 'a', ENOENT), attempt('read', 'b', ENOENT)], [3]],
    ['a success of the tool starts over', [attempt('read', 'a', ENOENT), attempt('read', 'b', ENOENT), attempt('read', 'ok'), attempt('read', 'c', ENOENT)], []],
    ['a different error starts over', [attempt('read', 'a', ENOENT), attempt('read', 'b', 'Error: permission denied'), attempt('read', 'c', ENOENT)], []],
    ['progress starts over', [attempt('read', 'a', ENOENT), attempt('read', 'b', ENOENT), attempt('read', 'c', ENOENT, 1)], []],
    ['other tools in between do not matter', [attempt('read', 'a', ENOENT), attempt('grep', 'x'), attempt('read', 'b', ENOENT), attempt('bash', 'y', 'Error: boom'), attempt('read', 'c', ENOENT)], [5]],
    ['then again after reWarnEvery more', Array.from({ length: 8 }, (_, i) => attempt('read', String(i), ENOENT)), [3, 8]],
  ])('%s', (_, calls, expected) => {
    expect(noticesAt(calls)).toEqual(expected)
  })

  it('remembers no tool until the first failure, and may be reset before it', () => {
    const detector = createSameErrorDetector({ schedule: { first: 2, every: 5 }, inputSchedule: { first: 5, every: 5 }, maxTracked: 8 })
    detector.observe(attempt('read', 'ok'))
    expect(detector.size()).toEqual({ failingTools: 0 })
    detector.reset()
    expect(detector.observe(attempt('read', 'a', ENOENT))).toBeUndefined()
    expect(detector.size()).toEqual({ failingTools: 1 })
    expect(detector.observe(attempt('read', 'b', ENOENT))?.finding.count).toBe(2)
    detector.observe(attempt('read', 'ok'))
    expect(detector.size()).toEqual({ failingTools: 0 })
  })

  it('ignores refused attempts', () => {
    const refused = (args: string): CallStep => {
      const step = attempt('read', args, ENOENT)
      return { ...step, call: { ...step.call, refused: true } }
    }
    expect(noticesAt([refused('a'), refused('b'), refused('c')])).toEqual([])
  })

  it('reports the tool, the count, the argument sets and the error as the model saw it', () => {
    const detector = createSameErrorDetector({ schedule: { first: 2, every: 5 }, inputSchedule: { first: 5, every: 5 }, maxTracked: 8 })
    const a = attempt('read', 'a', ENOENT)
    const b = attempt('read', 'b', ENOENT)
    detector.observe(a)
    expect(detector.observe(b)).toEqual({
      finding: { kind: 'same-error', tool: 'read', count: 2, variants: 2, error: `${ENOENT} 'src/b.ts'`, cause: 'environment' },
      // The loop is made of the calls that raised the error.
      calls: [a.call.key, b.call.key],
    })
  })
})
