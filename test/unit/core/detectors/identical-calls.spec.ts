import { describe, expect, it } from 'vitest'
import { createIdenticalCallsDetector, type IdenticalCallsDetector, type IdenticalCallsOptions } from '../../../../src/core/detectors/identical-calls.ts'
import { resultOf } from '../../../../src/core/evidence/results.ts'
import type { CallObservation } from '../../../../src/core/types.ts'
import type { IdenticalCallsFinding } from '../../../../src/core/kinds.ts'
import { callOf, createStepper, type Override } from '../../../support/observations.ts'

const obs = (tool: string, args: unknown = {}): CallObservation => callOf(tool, args)
type Options = IdenticalCallsOptions & { readonly maxTracked: number }
const DEFAULTS: Options = {
  schedule: { first: 6, every: 5 }, pollSchedule: { first: 6, every: 5 }, maxTracked: 1024, progressAware: true,
}
const warnAt = (first: number, every = 5): Partial<Options> => ({ schedule: { first, every }, pollSchedule: { first, every } })

/** A detector fed through a stepper, as the brake state feeds it. */
/** A detector fed through a call history bounded by `maxTracked`, as the brake state feeds it; `count` by key. */
function detectorOf(options: Options): Omit<IdenticalCallsDetector, 'observe'> & {
  observe: (call: CallObservation, epoch?: number) => IdenticalCallsFinding | undefined
} {
  const detector = createIdenticalCallsDetector(options)
  const step = createStepper(options.maxTracked)
  return {
    ...detector,
    observe: (call, epoch = 0) => detector.observe(step(call, epoch))?.finding,
    count: (key, epoch) => detector.count(step.slotOf(key), epoch),
    refusedCount: (key, epoch) => detector.refusedCount(step.slotOf(key), epoch),
  }
}

/** Feed `calls` (letters name distinct calls) and return the 1-based positions that produced a finding. */
function noticesAt(calls: string, options = DEFAULTS): number[] {
  const detector = detectorOf(options)
  const at: number[] = []
  Array.from(calls).forEach((letter, index) => {
    if (detector.observe(obs('read', { file: letter }))) at.push(index + 1)
  })
  return at
}

describe('identical calls', () => {
  it.each([
    // The sixth identical call carries the first notice, then the 11th, 16th, … (the first call counts).
    ['A'.repeat(5), []],
    ['A'.repeat(6), [6]],
    ['A'.repeat(10), [6]],
    ['A'.repeat(16), [6, 11, 16]],
    // Counted over the whole run, not only back to back.
    ['ABABABABABAB', [11, 12]],
    ['AAAAABBBBBA', [11]],
    ['ABCDEF', []],
  ])('%s → notices at %j', (calls, expected) => {
    expect(noticesAt(calls)).toEqual(expected)
  })

  it.each([
    [2, 1, 'AAAA', [2, 3, 4]],
    [3, 2, 'AAAAAAA', [3, 5, 7]],
  ])('warn %i, re-warn every %i: %s → %j', (warnCount, reWarnEvery, calls, expected) => {
    expect(noticesAt(calls, { ...DEFAULTS, ...warnAt(warnCount, reWarnEvery) })).toEqual(expected)
  })

  it('reports tool, canonical arguments and count', () => {
    const detector = detectorOf({ ...DEFAULTS, ...warnAt(2) })
    detector.observe(obs('read', { b: 2, a: 1 }))
    expect(detector.observe(obs('read', { a: 1, b: 2 }))).toEqual({
      kind: 'identical-calls', tool: 'read', toolClass: 'default', args: '{"a":1,"b":2}', count: 2, evidence: 'same-result',
    })
  })

  it('exposes the count for the deny guard, and forgets everything on reset', () => {
    const detector = detectorOf(DEFAULTS)
    const call = obs('bash', { command: 'npm test' })
    for (let i = 0; i < 4; i++) detector.observe(call)
    expect(detector.count(call.key, 0)).toBe(4)
    expect(detector.count(obs('bash', { command: 'ls' }).key, 0)).toBe(0)
    detector.reset()
    expect(detector.count(call.key, 0)).toBe(0)
  })

  it('forgets the least recently seen identity first when over its bound', () => {
    const detector = detectorOf({ ...DEFAULTS, maxTracked: 3 })
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(file => obs('read', { file })) as [CallObservation, CallObservation, CallObservation, CallObservation]
    detector.observe(a)
    detector.observe(b)
    detector.observe(c)
    detector.observe(a) // a is now the most recent; b is the least recent
    detector.observe(d) // evicts b
    expect([a, b, c, d].map(call => detector.count(call.key, 0))).toEqual([2, 0, 1, 1])
  })

  it('keeps many chains apart as their columns grow, and starts them afresh after a reset', () => {
    const detector = detectorOf(DEFAULTS)
    const calls = Array.from({ length: 40 }, (_, file) => obs('read', { file }))
    for (const call of calls) detector.observe(call)
    for (const call of calls.slice(20)) detector.observe(call)
    expect(calls.map(call => detector.count(call.key, 0))).toEqual([...Array<number>(20).fill(1), ...Array<number>(20).fill(2)])
    detector.reset()
    expect(calls.map(call => detector.count(call.key, 0))).toEqual(Array<number>(40).fill(0))
    // The call history still numbers them: a chain far into the columns starts at one, those before it stay unknown.
    detector.observe(calls[30]!)
    expect(calls.map(call => detector.count(call.key, 0))).toEqual([...Array<number>(30).fill(0), 1, ...Array<number>(9).fill(0)])
  })
})

describe('progress-aware identical calls', () => {
  /**
   * Feed one identity with the given results (a letter per call; `|` before a letter moves the progress epoch on;
   * `!` marks a refused attempt) and return the chain length after each call.
   */
  function chain(results: string, options: Partial<Options> = {}, kind: CallObservation['kind'] = 'default'): number[] {
    const detector = detectorOf({ ...DEFAULTS, ...options })
    const base = callOf('bash', { command: 'npm test' }, { kind })
    let epoch = 0
    const lengths: number[] = []
    for (const token of results.match(/[|]?!?[a-z]/g) ?? []) {
      if (token.startsWith('|')) epoch++
      const refused = token.includes('!')
      detector.observe({ ...base, refused, result: resultOf(refused ? 'refused' : token.at(-1)!) }, epoch)
      lengths.push(detector.count(base.key, epoch))
    }
    return lengths
  }

  it.each<[string, string, Partial<Options>, string, number[]]>([
    ['the same result extends the chain', 'aaaa', {}, 'default', [1, 2, 3, 4]],
    ['a changed result starts it again (a change back is a change too)', 'aabaa', {}, 'default', [1, 2, 1, 1, 2]],
    ['progress in between starts it again', 'aa|aa', {}, 'default', [1, 2, 1, 2]],
    ['a refused attempt extends the chain, whatever its result', 'aa!x!xa', {}, 'default', [1, 2, 3, 4, 5]],
    ['plain counting counts every repeat', 'aab|ba', { progressAware: false }, 'default', [1, 2, 3, 4, 5]],
    ['pollers are judged by their results even with plain counting', 'aabb', { progressAware: false }, 'poller', [1, 2, 1, 2]],
  ])('%s: %s', (_, results, options, kind, expected) => {
    expect(chain(results, options, kind as CallObservation['kind'])).toEqual(expected)
  })

  it('counts the refused attempts of a chain apart, so a refusal can say what ran', () => {
    const detector = detectorOf(DEFAULTS)
    const call = obs('bash', { command: 'make' })
    const refusedAfter: number[] = []
    for (const result of ['ok', 'ok', '!', '!', 'changed', '!']) {
      const refused = result === '!'
      detector.observe({ ...call, refused, result: resultOf(refused ? 'refused' : result) })
      refusedAfter.push(detector.refusedCount(call.key, 0))
    }
    // A run with a changed result starts the chain again, and its refusals with it.
    expect(refusedAfter).toEqual([0, 0, 1, 2, 0, 1])
    expect(detector.count(call.key, 0)).toBe(2)
    expect(detector.refusedCount(call.key, 1)).toBe(0)
  })

  it('reads a chain broken by later progress as zero for the guard', () => {
    const detector = detectorOf(DEFAULTS)
    const call = obs('bash', { command: 'make' })
    for (let i = 0; i < 3; i++) detector.observe(call)
    expect(detector.count(call.key, 0)).toBe(3)
    expect(detector.count(call.key, 1)).toBe(0)
  })

  it('reads a chain counted plainly as it stands after later progress: only a progress-aware chain is broken by it', () => {
    const detector = detectorOf({ ...DEFAULTS, progressAware: false })
    const call = obs('bash', { command: 'make' })
    for (let i = 0; i < 3; i++) detector.observe(call)
    expect(detector.count(call.key, 1)).toBe(3)
    // A poller's chain is judged by its results whatever the counting: progress breaks it.
    const poll = callOf('job_output', { id: 1 }, { kind: 'poller' })
    detector.observe(poll)
    expect(detector.count(poll.key, 1)).toBe(0)
  })

  it.each<[string, Override[], Partial<Options>, string]>([
    ['same-result', [{}, {}], {}, 'same-result'],
    ['same-failure', [{ failed: true }, { failed: true }], {}, 'same-failure'],
    ['changed, with plain counting', [{ result: 'a' }, { result: 'b' }], { progressAware: false }, 'changed'],
  ])('reports the evidence: %s', (_, calls, options, evidence) => {
    const detector = detectorOf({ ...DEFAULTS, ...options, ...warnAt(2) })
    let found
    for (const over of calls) found = detector.observe(callOf('bash', { command: 'x' }, over))
    expect(found?.evidence).toBe(evidence)
  })
})

describe('results compared normalized', () => {
  it('takes results that differ only in volatile fragments for the same result', () => {
    const detector = detectorOf({ ...DEFAULTS, ...warnAt(3) })
    const run = (ms: number) => callOf('bash', { command: 'npm test' }, { result: `Tests 3 passed\nDuration ${ms}ms (pid ${ms + 4000})` })
    detector.observe(run(120))
    detector.observe(run(87))
    expect(detector.observe(run(301))?.count).toBe(3)
  })
})
