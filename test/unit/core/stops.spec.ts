/**
 * Stop mode's rule, through one agent's real state under the default thresholds of stop mode: a loop that goes on
 * after its notice settles a stop (a second notice on the same loop, or a refusal), and nothing else does.
 */
import { describe, expect, it } from 'vitest'
import { DEFAULTS } from '../../../src/config/keys.ts'
import { resolveOptions } from '../../../src/config/resolve.ts'
import { createBrakeState } from '../../../src/core/brake-state.ts'
import { REFUSED } from '../../../src/core/evidence/results.ts'
import { loopCalls, loopStopCause, stopCause, type StopCause } from '../../../src/core/stops.ts'
import type { CallObservation } from '../../../src/core/types.ts'
import { callOf, checkOf, editOf } from '../../support/observations.ts'

const { detectors } = resolveOptions({ ...DEFAULTS, mode: 'stop' })

/** Observe the calls in order; the 1-based number of the first call that settles a stop, and its cause. */
function firstStop(calls: readonly CallObservation[]): { at: number; cause: StopCause } | undefined {
  const state = createBrakeState(detectors)
  for (const [index, call] of calls.entries()) {
    const cause = stopCause({ call, told: state.observeCall(call), chainLength: call.refused ? state.callCount(call.key) : 0 })
    if (cause !== undefined) return { at: index + 1, cause }
  }
  return undefined
}

const read = (file: string, result = `contents of ${file}`): CallObservation => callOf('read', { file_path: file }, { kind: 'read', result })
const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i))
/** A search for `pattern` that found nothing. */
const grep = (pattern: string): CallObservation => callOf('grep', { pattern, path: 'src' }, {
  kind: 'read', lookup: { terms: [pattern], scope: ['src'] }, nothing: true, result: 'No matches found',
})

describe('stop mode settles a stop', () => {
  it('on the second notice of identical calls: the first notice at 4, the second at 9', () => {
    const stop = firstStop(times(40, () => read('a.ts')))
    expect(stop?.at).toBe(DEFAULTS.callWarnCount + DEFAULTS.callReWarnEvery)
    expect(stop?.cause).toMatchObject({ refused: false, loop: { kind: 'identical-calls', tool: 'read', count: 9 } })
  })

  it('on the second notice of a cycle, and counts its calls', () => {
    const cycle = ['a', 'b', 'c', 'd'].map(file => read(file))
    const stop = firstStop(times(15, () => cycle).flat())
    expect(stop?.cause.loop).toMatchObject({ kind: 'cycle', laps: DEFAULTS.sequenceCount + DEFAULTS.callReWarnEvery })
    expect(stop?.at).toBe(loopCalls(stop!.cause.loop))
    expect(stop?.at).toBeLessThanOrEqual(40)
  })

  it('on the second notice of the same error', () => {
    const failing = (i: number): CallObservation => callOf('bash', { command: `make t${i}` }, {
      failed: true, errorLine: 'make: *** No rule to make target', result: `make: *** No rule to make target t${i}`,
    })
    const stop = firstStop(times(20, failing))
    expect(stop?.cause.loop).toMatchObject({ kind: 'same-error', count: DEFAULTS.errorRepeatCount + DEFAULTS.callReWarnEvery })
  })

  it('on a refused call, which the brake refuses only after a notice on its chain', () => {
    const calls = [...times(3, () => read('a.ts')), { ...read('a.ts'), refused: true, result: REFUSED }]
    const stop = firstStop(calls)
    expect(stop).toMatchObject({ at: 4, cause: { refused: true, loop: { kind: 'identical-calls', tool: 'read', count: 4 } } })
  })
})

describe('stop mode never stops', () => {
  it('on a first notice', () => {
    expect(firstStop(times(DEFAULTS.callWarnCount + DEFAULTS.callReWarnEvery - 1, () => read('a.ts')))).toBeUndefined()
  })

  it('on a poll whose output changes', () => {
    expect(firstStop(times(12, i => callOf('job_output', { job_id: 'j' }, { kind: 'poller', result: `${i * 10}% done` })))).toBeUndefined()
  })

  it('on a poller waiting on an unchanged status, however long (deny mode never refuses one either)', () => {
    expect(firstStop(times(40, () => callOf('job_output', { job_id: 'j' }, { kind: 'poller', result: 'running' })))).toBeUndefined()
  })

  it('on a refused poller', () => {
    expect(firstStop([{ ...callOf('job_output', { job_id: 'j' }, { kind: 'poller' }), refused: true, result: REFUSED }])).toBeUndefined()
  })

  it('when progress comes between the notices: each loop starts afresh', () => {
    const test = callOf('bash', { command: 'npm test' }, { result: '1 failed' })
    const edit = (i: number): CallObservation => callOf('write', { file_path: 'a.ts', content: `v${i}` }, { kind: 'mutating' })
    // Four runs of the failing test (a notice each time), with a new edit between them.
    expect(firstStop(times(6, i => [edit(i), test, test, test, test]).flat())).toBeUndefined()
  })

  it('on the same failure after every fix, told again and again: each run followed a change', () => {
    const failing = checkOf('python repro.py', 'Traceback (most recent call last):\n  File "/r/app.py", line 3, in f\n    g()\nNameError: name \'g\' is not defined\n', true)
    const calls = times(20, i => [editOf('repro.py', `v${i}`, `v${i + 1}`), failing]).flat()
    const state = createBrakeState(detectors)
    const told = calls.map(call => state.observeCall(call)).filter(said => said !== undefined)
    expect(told.map(said => [said.finding.kind, said.again])).toEqual([['same-failure', false], ['same-failure', false], ['same-failure', false], ['same-failure', false]])
    expect(firstStop(calls)).toBeUndefined()
  })

  it('on edits that undo each other, told again: each of them was a change', () => {
    const failing = checkOf('python repro.py', '  File "/r/app.py", line 30\n    print(x\nSyntaxError: \'(\' was never closed\n', true)
    const undo = (): CallObservation[] => [editOf('app.py', 'a', 'b'), checkOf('python repro.py', 'ok\n'), editOf('app.py', 'b', 'a'), failing]
    expect(loopStopCause({ finding: { kind: 'edit-revert', evidence: 'back', tool: 'bash', args: '{}', file: '', count: 8, failure: 'x' }, also: [], again: true, exactBefore: true })).toBeUndefined()
    expect(firstStop(times(10, undo).flat())).toBeUndefined()
  })

  it('on calls that bring no news, however many notices they draw: that evidence is read, not seen repeating', () => {
    // Searches for one name under ever new spellings, all empty: told every five calls, never stopped.
    const spellings = times(40, i => `parse_config${'_x'.repeat(i)}`)
    const state = createBrakeState(detectors)
    const told = spellings.map(pattern => state.observeCall(grep(pattern)))
    expect(told.filter(said => said !== undefined).map(said => said.finding.kind)).toEqual(times(8, () => 'near-duplicate'))
    expect(firstStop(spellings.map(grep))).toBeUndefined()
  })
})

describe('a loop told first as calls that brought no news', () => {
  it('stops at the second notice on its exact repetition, as it would without that notice', () => {
    // Five spellings, then the last two greps back and forth. The near-duplicate notice comes at call 6; the cycle's third
    // lap (call 9) and parse_conf's fourth (call 10) are held back within five calls of it; load_config's fourth (call
    // 11) is the first notice on exact repetition, the cycle's eighth lap (call 19) the second, which stops the turn.
    const spellings = ['parse_config', 'def parse_config', 'parseConfig', 'parse_conf', 'load_config']
    const calls = [...spellings.map(grep), ...times(30, i => grep(i % 2 === 0 ? 'parse_conf' : 'load_config'))]
    const state = createBrakeState(detectors)
    const told = calls.map(call => state.observeCall(call))
    const notices = told.flatMap((said, index) => said === undefined ? [] : [`${index + 1}:${said.finding.kind}:${said.exactBefore}`])
    expect(notices.slice(0, 3)).toEqual(['6:near-duplicate:false', '11:identical-calls:false', '19:cycle:true'])
    expect(firstStop(calls)?.at).toBe(19)
  })
})
