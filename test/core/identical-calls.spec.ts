import { describe, expect, it } from 'vitest'
import { identifyCall } from '../../src/core/canonical.ts'
import { createIdenticalCallDetector, isNoticeCount } from '../../src/core/identical-calls.ts'
import type { CallObservation } from '../../src/core/types.ts'

const obs = (tool: string, args: unknown = {}): CallObservation => ({ tool, ...identifyCall(tool, args) })

/** Feed `calls` (letters name distinct calls) and return the 1-based positions that produced a finding. */
function noticesAt(calls: string, options = { warnCount: 6, reWarnEvery: 5, maxTracked: 1024 }): number[] {
  const detector = createIdenticalCallDetector(options)
  const at: number[] = []
  ;[...calls].forEach((letter, index) => {
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
    expect(noticesAt(calls, { warnCount, reWarnEvery, maxTracked: 1024 })).toEqual(expected)
  })

  it('reports tool, canonical arguments and count', () => {
    const detector = createIdenticalCallDetector({ warnCount: 2, reWarnEvery: 5, maxTracked: 8 })
    detector.observe(obs('read', { b: 2, a: 1 }))
    expect(detector.observe(obs('read', { a: 1, b: 2 }))).toEqual({ kind: 'repeated-call', tool: 'read', args: '{"a":1,"b":2}', count: 2 })
  })

  it('exposes the count for the deny guard, and forgets everything on reset', () => {
    const detector = createIdenticalCallDetector({ warnCount: 6, reWarnEvery: 5, maxTracked: 8 })
    const call = obs('bash', { command: 'npm test' })
    for (let i = 0; i < 4; i++) detector.observe(call)
    expect(detector.count(call.key)).toBe(4)
    expect(detector.count(obs('bash', { command: 'ls' }).key)).toBe(0)
    detector.reset()
    expect(detector.count(call.key)).toBe(0)
  })

  it('forgets the least recently seen identity first when over its bound', () => {
    const detector = createIdenticalCallDetector({ warnCount: 6, reWarnEvery: 5, maxTracked: 3 })
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(file => obs('read', { file })) as [CallObservation, CallObservation, CallObservation, CallObservation]
    detector.observe(a)
    detector.observe(b)
    detector.observe(c)
    detector.observe(a) // a is now the most recent; b is the least recent
    detector.observe(d) // evicts b
    expect([a, b, c, d].map(call => detector.count(call.key))).toEqual([2, 0, 1, 1])
  })

  it('isNoticeCount matches the README rule', () => {
    const counts = Array.from({ length: 30 }, (_, i) => i + 1).filter(n => isNoticeCount(n, 6, 5))
    expect(counts).toEqual([6, 11, 16, 21, 26])
  })
})
