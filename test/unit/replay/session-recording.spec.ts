/**
 * What the analyzer rebuilds from a DSH session log: the agent's calls, the contexts each step claimed, what the brake
 * said and after which call, and the token usage.
 */
import { describe, expect, it } from 'vitest'
import { decodeSessionLog } from '../../../src/session-logs/decode.ts'
import { recordingOf } from '../../../src/replay/session-recording.ts'
import { header, read, readsWithNotice, SessionScript, skippedCall } from '../../support/session-logs.ts'

describe('what the analyzer rebuilds', () => {
  it('the calls in result order, the steps with what they claimed, and the person\'s message as a turn', () => {
    const recording = recordingOf(decodeSessionLog('s', readsWithNotice().bytes()), 'dsh-brake')
    expect(recording.calls.map(call => [call.index, call.tool, call.text, call.step])).toEqual([
      [0, 'read', 'one', '1/1'], [1, 'read', 'one', '1/1'], [2, 'read', 'one', '1/2'], [3, 'read', 'one', '1/3'],
    ])
    expect(recording.events.map(event => event.kind === 'step'
      ? `step(${event.contexts.map(c => c.source.kind).join(',')})${event.opensTurn === true ? ' opens the turn' : ''}`
      : event.kind)).toEqual([
      'user', 'step(runtime-context) opens the turn', 'call', 'call', 'step()', 'call', 'step()', 'call',
    ])
  })

  it('what the brake said, after the call its notice was attached to (not the step that showed it)', () => {
    const recording = recordingOf(decodeSessionLog('s', readsWithNotice().bytes()), 'dsh-brake')
    expect(recording.said.map(action => [action.kind, action.call, action.text])).toEqual([['notice', 2, 'read × 3, same result']])
  })

  it('the usage of each step, to share among its calls', () => {
    const recording = recordingOf(decodeSessionLog('s', readsWithNotice().bytes()), 'dsh-brake')
    expect([...recording.usage]).toEqual([['1/1', { inputTokens: 1000, outputTokens: 20 }], ['1/2', { inputTokens: 1000, outputTokens: 20 }], ['1/3', { inputTokens: 500, outputTokens: 10 }]])
    expect(recording.callsPerStep.get('1/1')).toBe(2)
  })

  it('skips event types it does not know, and events of a known type with data of another shape', () => {
    const written = readsWithNotice()
    const plain = recordingOf(decodeSessionLog('s', written.bytes()), 'dsh-brake')
    written.raw({ type: 'future/insight', data: { anything: [1, 2] } }).raw({ type: 'tool/result', data: { message: 'not a message' } })
    const recording = recordingOf(decodeSessionLog('s', written.bytes()), 'dsh-brake')
    expect(recording.events.length).toBe(plain.events.length)
    expect(recording.events).toEqual(plain.events)
  })

  it('skips the events a session inherited from its parent through a seed', () => {
    const parent = new SessionScript(header('parent')).prompt('parent task').respond([read('inherited')])
    const fork = new SessionScript({ ...header('fork'), seedLength: parent.events.length })
    fork.events.push(...parent.events)
    fork.prompt('your task').respond([read('own')])
    const recording = recordingOf(decodeSessionLog('s', fork.bytes()), 'dsh-brake')
    expect(recording.calls.map(call => call.text)).toEqual(['own'])
    expect(recording.events.flatMap(event => event.kind === 'user' ? [event.text] : [])).toEqual(['your task'])
  })

  it('marks the calls DSH cancelled before running them as skipped, keeping their numbers', () => {
    const written = new SessionScript(header('s')).prompt('go')
      .respond([read('one'), skippedCall('read', { file_path: 'b.txt' }), skippedCall('read', { file_path: 'c.txt' })])
      .openStep().respond([read('two')])
    const recording = recordingOf(decodeSessionLog('s', written.bytes()), 'dsh-brake')
    expect(recording.calls.map(call => [call.index, call.text])).toEqual([
      [0, 'one'], [1, 'Error: tool call aborted before dispatch'], [2, 'Error: tool call aborted before dispatch'], [3, 'two'],
    ])
    expect(recording.events.flatMap(event => event.kind === 'call' ? [event.skipped === true] : [])).toEqual([false, true, true, false])
  })

  it('marks a resume where DSH reopened the log, once per restart, before the resumed agent\'s first step', () => {
    const resumeHeader = { type: 'request/header', data: { header: { config: {} }, reason: 'resume' } }
    const written = new SessionScript(header('s')).prompt('go').respond([read('one')])
      // A restart: the reopened log is marked, then the new agent's first step claims, then its first request.
      .raw({ type: 'session/end-seed', data: {} }).openStep().raw(resumeHeader).respond([read('one')])
      // A restart marked only by the request header (before its step's model output).
      .openStep().raw(resumeHeader).respond([read('one')])
    const recording = recordingOf(decodeSessionLog('s', written.bytes()), 'dsh-brake')
    expect(recording.events.map(event => event.kind)).toEqual(['user', 'step', 'call', 'resume', 'step', 'call', 'resume', 'step', 'call'])
    expect(recording.calls.map(call => call.index)).toEqual([0, 1, 2])
  })

  it('a fork starts with a fresh agent anyway: its end-of-seed mark is no resume', () => {
    const parent = new SessionScript(header('parent')).prompt('parent task').respond([read('inherited')])
    const fork = new SessionScript({ ...header('fork'), seedLength: parent.events.length })
    fork.events.push(...parent.events)
    fork.raw({ type: 'session/end-seed', data: {} }).prompt('your task').respond([read('own')])
    expect(recordingOf(decodeSessionLog('s', fork.bytes()), 'dsh-brake').events.map(event => event.kind)).toEqual(['user', 'step', 'call'])
  })

  it('recognizes the brake\'s stops by their wording, not by a mention of the brake in another hook\'s reason', () => {
    const cancelled = (reason: string): { type: string; data: unknown } =>
      ({ type: 'turn/end', data: { turn: 1, reason: { kind: 'aborted', reason: { kind: 'hook', reason } } } })
    const stop = 'dsh-brake stopped the turn: a loop went on after its notice, with nothing changing. `read` was called 9 times.'
    const written = new SessionScript(header('s')).prompt('go').respond([read('one')])
      .raw(cancelled('budget-guard: over budget (dsh-brake had warned twice)'))
      .prompt('again').respond([read('one')]).raw(cancelled(stop))
    const recording = recordingOf(decodeSessionLog('s', written.bytes()), 'dsh-brake')
    expect(recording.said).toEqual([{ kind: 'stop', agent: 's', call: 1, text: stop }])
  })

  it('tells a subagent\'s log by its header', () => {
    const recording = recordingOf(decodeSessionLog('s', new SessionScript(header('child', 'parent')).prompt('task').bytes()), 'dsh-brake')
    expect([recording.subagent, recording.parentSession]).toEqual([true, 'parent'])
  })
})
