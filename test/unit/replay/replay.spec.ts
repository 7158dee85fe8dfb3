/**
 * The replay's DSH surface beyond notices: a plugin's guard refuses a call (which then carries DSH's refusal result
 * through post-execute), and a plugin that cancels the agent in a pre-step stops it, so the rest of the turn is not
 * played. Checked with small plugins of the test's own, and with the brake itself in deny mode.
 */
import type { Context } from '@deepseek-ai/cordis'
import { describe, expect, it, vi } from 'vitest'
import * as Brake from '../../../src/index.ts'
import type { Action } from '../../../src/replay/actions.ts'
import type { AgentEvent, CallEvent } from '../../../src/replay/agent-events.ts'
import { replay, type ReplayResult } from '../../../src/replay/replay.ts'

const read = (file: string): AgentEvent => ({ kind: 'call', agent: 'a', tool: 'read', args: { file_path: file }, isError: false, text: `contents of ${file}` })
const user = (text: string): AgentEvent => ({ kind: 'user', agent: 'a', text })
/** The replay's actions of one kind. */
const only = (result: ReplayResult, kind: Action['kind']): Action[] => result.actions.filter(action => action.kind === kind)

/** Refuses every `rm`, and writes down the result each call reached post-execute with. */
function refuser(seen: { tool: string; isError: boolean; text: string }[]): object {
  return {
    name: 'refuser',
    apply(ctx: Context) {
      ctx.inject(['tools'], ctx => void ctx.tools.guard(exec => exec.name === 'rm' ? 'rm is not allowed' : undefined))
      ctx.on('tools/post-execute', (exec, result, next) => {
        const block = result.content[0]
        seen.push({ tool: exec.name, isError: result.isError, text: block?.type === 'text' ? block.text : '' })
        return next()
      })
    },
  }
}

/**
 * After its third call, cancels the agent at the next step's model request (as stop mode does) or, with `rejecting`,
 * rejects that step in its pre-step; records the session header each step's agent shows.
 */
function stopper(headers: unknown[], rejecting = false): object {
  return {
    name: 'stopper',
    apply(ctx: Context) {
      let calls = 0
      ctx.on('tools/post-execute', (_exec, _result, next) => {
        calls++
        return next()
      })
      ctx.on('agent/pre-step', (payload, next) => {
        headers.push(payload.agent.session.header)
        if (rejecting && calls >= 3) {
          calls = 0
          return Promise.resolve({ kind: 'reject' })
        }
        return next()
      })
      ctx.on('agent/request', (payload, next) => {
        if (calls >= 3) {
          calls = 0
          payload.agent.cancel({ kind: 'hook', reason: 'stopped: going round' }, { keepInbox: true })
        }
        return next()
      })
    },
  }
}

describe('guards', () => {
  it('a refused call reaches post-execute with DSH\'s refusal result instead of the recorded one, and is listed', async () => {
    const seen: { tool: string; isError: boolean; text: string }[] = []
    const rm: AgentEvent = { kind: 'call', agent: 'a', tool: 'rm', args: { path: 'x' }, isError: false, text: 'removed' }
    const result = await replay([user('go'), read('f'), rm, read('g')], [{ plugin: refuser(seen), config: {} }])
    expect(only(result, 'refusal')).toEqual([{ kind: 'refusal', agent: 'a', call: 1, text: 'rm is not allowed' }])
    expect(seen).toEqual([
      { tool: 'read', isError: false, text: 'contents of f' },
      { tool: 'rm', isError: true, text: 'Error: rm is not allowed' },
      { tool: 'read', isError: false, text: 'contents of g' },
    ])
  })

  it('the brake in deny mode refuses the eleventh and twelfth identical reads', async () => {
    const result = await replay([user('go'), ...Array.from({ length: 12 }, () => read('f'))], [{ plugin: Brake, config: { mode: 'deny' } }])
    expect(only(result, 'refusal').map(refusal => refusal.call)).toEqual([10, 11])
    expect(only(result, 'refusal')[0]!.text).toMatch(/^dsh-brake refused this call: `read` has already run 10 times/)
    expect(only(result, 'notice').map(notice => [notice.call, notice.text, notice.plugin])).toEqual([[3, 'read × 4, same result', 'dsh-brake'], [8, 'read × 9, same result', 'dsh-brake']])
  })
})

describe('calls DSH never ran', () => {
  const skipped = (file: string): AgentEvent => ({
    kind: 'call', agent: 'a', tool: 'read', args: { file_path: file }, isError: true,
    text: 'Error: tool call aborted before dispatch', errorCode: 'ABORTED_BEFORE_DISPATCH', skipped: true,
  })

  it('reach neither the guards nor post-execute, and keep their numbers', async () => {
    const seen: { tool: string; isError: boolean; text: string }[] = []
    const rm: CallEvent = { kind: 'call', agent: 'a', tool: 'rm', args: { path: 'x' }, isError: false, text: 'removed' }
    const result = await replay([user('go'), read('f'), { ...rm, skipped: true }, skipped('g'), rm], [{ plugin: refuser(seen), config: {} }])
    expect(seen.map(call => call.tool)).toEqual(['read', 'rm'])
    expect(only(result, 'refusal')).toEqual([{ kind: 'refusal', agent: 'a', call: 3, text: 'rm is not allowed' }])
  })

  it('give the brake nothing to count', async () => {
    const result = await replay([user('go'), ...Array.from({ length: 12 }, () => skipped('f'))], [{ plugin: Brake, config: {} }])
    expect(result.actions).toEqual([])
  })
})

describe('steps of a session log', () => {
  const step = (opensTurn = false): AgentEvent => ({ kind: 'step', agent: 'a', contexts: [], ...opensTurn ? { opensTurn } : {} })

  /** Writes down each pre-step (with the kinds of the messages it claimed) and each model request. */
  function witness(seen: string[]): object {
    return {
      name: 'witness',
      apply(ctx: Context) {
        ctx.on('agent/pre-step', (payload, next) => {
          seen.push(`pre-step(${payload.messages.map(message => message.source.kind).join(',')})`)
          return next()
        })
        ctx.on('agent/request', (_payload, next) => {
          seen.push('request')
          return next()
        })
      },
    }
  }

  it('the step that claims a person\'s message runs one pre-step and one request, as live', async () => {
    const seen: string[] = []
    await replay([user('go'), step(true), read('f'), step(), read('g')], [{ plugin: witness(seen), config: {} }])
    expect(seen).toEqual(['pre-step(user)', 'request', 'pre-step()', 'request'])
  })

  it('a turn that opens without a person\'s message (a goal round) ends a stop: its calls are played', async () => {
    const events = [user('go'), step(true), read('1'), step(), read('2'), step(), read('3'), step(), read('4'), step(true), read('5')]
    const result = await replay(events, [{ plugin: stopper([]), config: {} }])
    expect(only(result, 'stop')).toEqual([{ kind: 'stop', agent: 'a', call: 2, text: 'stopped: going round' }])
    expect(result.spared).toBe(1)
  })
})

describe('a resume', () => {
  it('gives the agent fresh state: counts do not carry across a restart, and calls are numbered on', async () => {
    const resume: AgentEvent = { kind: 'resume', agent: 'a' }
    const reads = Array.from({ length: 3 }, () => read('f'))
    const carried = await replay([user('go'), ...reads, ...reads], [{ plugin: Brake, config: {} }])
    expect(only(carried, 'notice').map(notice => notice.call)).toEqual([3])
    const resumed = await replay([user('go'), ...reads, resume, ...reads, read('f')], [{ plugin: Brake, config: {} }])
    expect(only(resumed, 'notice').map(notice => notice.call)).toEqual([6])
  })

  it('ends a stop: the resumed agent plays its calls', async () => {
    const events = [user('go'), read('1'), read('2'), read('3'), read('4'), { kind: 'resume', agent: 'a' } as const, read('5')]
    const result = await replay(events, [{ plugin: stopper([]), config: {} }])
    expect(only(result, 'stop')).toEqual([{ kind: 'stop', agent: 'a', call: 2, text: 'stopped: going round' }])
    expect(result.spared).toBe(1)
  })
})

describe('stops', () => {
  it('a cancel at a model request stops the agent there: the rest of the turn is skipped, the next prompt plays again', async () => {
    const headers: unknown[] = []
    const events = [user('go'), read('1'), read('2'), read('3'), read('4'), read('5'), user('again'), read('6')]
    const result = await replay(events, [{ plugin: stopper(headers), config: {} }], { headers: new Map([['a', { origin: 'subagent', parentSession: 'p' }]]) })
    expect(only(result, 'stop')).toEqual([{ kind: 'stop', agent: 'a', call: 2, text: 'stopped: going round' }])
    expect(result.spared).toBe(2)
    expect(headers[0]).toEqual({ origin: 'subagent', parentSession: 'p' })
  })

  it('a step a pre-step rejects ends the turn the same way', async () => {
    const events = [user('go'), read('1'), read('2'), read('3'), read('4'), read('5')]
    const result = await replay(events, [{ plugin: stopper([], true), config: {} }])
    expect(only(result, 'stop')).toEqual([{ kind: 'stop', agent: 'a', call: 2, text: 'the step was rejected' }])
    expect(result.spared).toBe(2)
  })

  it('the brake in stop mode stops 40 identical reads after the ninth, and its terminal line stays out of stderr', async () => {
    const written: string[] = []
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk))
      return true
    })
    try {
      const result = await replay([user('go'), ...Array.from({ length: 40 }, () => read('f'))], [{ plugin: Brake, config: { mode: 'stop' } }])
      expect(only(result, 'stop')).toEqual([{ kind: 'stop', agent: 'a', call: 8, text: expect.stringMatching(/^dsh-brake stopped the turn: .*`read` was called 9 times/) as string }])
      expect(result.spared).toBe(31)
      // The spy still hears other writes: the stop line was held back, not lost to a broken spy.
      process.stderr.write('other lines pass\n')
    } finally {
      spy.mockRestore()
    }
    expect(written).toEqual(['other lines pass\n'])
  })
})
