import { describe, expect, it } from 'vitest'
import { createCallHistory } from '../../../src/core/call-history.ts'
import { createRecentResults } from '../../../src/core/evidence/results.ts'
import { callOf } from '../../support/observations.ts'

describe('the call history', () => {
  it('moves the version only when the result changes (normalized), and not on a refusal', () => {
    const history = createCallHistory(8)
    const call = (result: string, refused = false) => callOf('job_output', { job_id: 'j' }, { result, refused })
    const steps = ['running 1', 'running 1', 'refused', 'running 2', 'running 2 (pid 4411)', 'running 2 (pid 4412)', 'done']
      .map(text => history.step(text === 'refused' ? call('x', true) : call(text), 0))
    expect(steps.map(step => step.version)).toEqual([1, 1, 1, 2, 3, 3, 4])
    // A revisit: called before in the same epoch, result unchanged since.
    expect(steps.map(step => step.revisit)).toEqual([false, true, true, false, false, true, false])
  })

  it('takes no call from an earlier epoch for a revisit', () => {
    const history = createCallHistory(8)
    const read = callOf('read', { file_path: 'a' })
    expect([history.step(read, 0), history.step(read, 0), history.step(read, 1), history.step(read, 1)].map(s => s.revisit))
      .toEqual([false, true, false, true])
  })

  it('keeps identities apart, and starts a forgotten one afresh', () => {
    const history = createCallHistory(2)
    const [a, b, c] = ['a', 'b', 'c'].map(file => callOf('read', { file_path: file })) as [ReturnType<typeof callOf>, ReturnType<typeof callOf>, ReturnType<typeof callOf>]
    history.step(a, 0)
    history.step(b, 0)
    expect(history.step(a, 0).revisit).toBe(true)
    // A third identity takes the least recently seen one's place (b); a stays.
    history.step(c, 0)
    expect(history.step(b, 0).revisit).toBe(false)
    expect(history.size).toBe(2)
    history.clear()
    expect(history.size).toBe(0)
  })

  it('compares a result whose text has left the window as it would have had it been normalized whole', () => {
    // A window of two texts: each call's text pushes the oldest out, as a long session does.
    const recent = createRecentResults(2, 1_000)
    const history = createCallHistory(8)
    const observe = (call: ReturnType<typeof callOf>): ReturnType<typeof history.step> => {
      recent.remember(call.result)
      return history.step(call, 0)
    }
    const run = (duration: string) => callOf('bash', { command: 'make' }, { result: `compiled 3 modules\nran in ${duration}` })
    const other = (file: string) => callOf('read', { file_path: file }, { result: `contents of ${file}` })
    // The second run is compared with the first while both texts are at hand, then its text leaves the window while it
    // is still the identity's latest result: the third run, compared with it after that, is still the same result.
    expect([observe(run('4.05s')), observe(run('5.01s')), observe(other('a')), observe(other('b')), observe(run('6.20s'))]
      .map(step => step.version)).toEqual([1, 1, 1, 1, 1])
    // A changed result still changes the version.
    expect(observe(run('6.20s with 1 warning')).version).toBe(2)
  })
})
