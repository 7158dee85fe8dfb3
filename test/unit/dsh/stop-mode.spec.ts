/**
 * Stop mode's transitions, one agent at a time, with the hard stop's surroundings faked: a settled stop makes the next
 * step its turn's last, that step's model request ends the turn, a cancel that did not take rejects the step after,
 * and a stop lapses with its turn, is forgotten with its agent and is done when its turn ends anyway. The real loop
 * around it is in test/loop/stop.spec.ts.
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { LlmCallConfig } from '@deepseek-ai/dsh-llm'
import { describe, expect, it, vi } from 'vitest'
import type { StopCause } from '../../../src/core/stops.ts'
import { stopReason } from '../../../src/messages/notices.ts'
import { createStopMode, type StopMode } from '../../../src/dsh/stop-mode.ts'
import { createSubagentStops } from '../../../src/dsh/subagents.ts'
import { callOf } from '../../support/observations.ts'

/** A refused call settles a stop on its own, whatever the findings: its chain of 5 identical calls is its cause. */
const refused = callOf('read', { file_path: 'a.ts' }, { kind: 'read', refused: true })
const cause: StopCause = {
  refused: true,
  loop: { kind: 'identical-calls', tool: 'read', toolClass: 'read', args: '{"file_path":"a.ts"}', count: 5, evidence: 'same-result' },
}
const config = {} as LlmCallConfig

/** The model request of `agent`'s step, through stop mode's listener. */
function requestOf(stops: StopMode, agent: Agent, aborted = false): Promise<LlmCallConfig> {
  const signal = aborted ? AbortSignal.abort() : new AbortController().signal
  return stops.onRequest({ agent, turn: 1, signal } as never, () => Promise.resolve(config))
}

interface Setup {
  readonly stops: StopMode
  readonly agent: Agent
  readonly cancel: ReturnType<typeof vi.fn>
  readonly report: ReturnType<typeof vi.fn>
  readonly emit: ReturnType<typeof vi.fn>
  readonly contain: ReturnType<typeof vi.fn>
  /** The step's model request, as the `agent/request` waterfall runs it. */
  readonly request: (aborted?: boolean) => Promise<LlmCallConfig>
}

function setup(cancelTakes = true): Setup {
  const cancel = vi.fn(() => {
    if (!cancelTakes) throw new Error('injected cancel fault')
  })
  const report = vi.fn()
  const emit = vi.fn()
  const contain = vi.fn()
  const agent = { cancel, session: { header: { origin: 'user' } } } as unknown as Agent
  const stops = createStopMode({ name: 'dsh-brake', subagents: createSubagentStops(), emit, contain, report, goals: () => undefined })
  const request = (aborted = false): Promise<LlmCallConfig> => requestOf(stops, agent, aborted)
  return { stops, agent, cancel, report, emit, contain, request }
}

describe('stop mode', () => {
  it('ends the turn at the model request of the step after the call that settled the stop', async () => {
    const { stops, agent, cancel, report, emit, request } = setup()
    stops.stepBegins(agent, 1)
    stops.callCounted(agent, { call: refused, told: undefined, chainLength: 5 })
    const start = stops.stepStarting(agent, false)
    expect(start).toMatchObject({ kind: 'last-step', notice: { source: { kind: 'plugin', plugin: 'dsh-brake' } } })
    stops.noticeEntered(agent)
    await expect(request()).resolves.toBe(config)
    const reason = stopReason(cause)
    expect(cancel).toHaveBeenCalledExactlyOnceWith({ kind: 'hook', reason }, { keepInbox: true })
    expect(report).toHaveBeenCalledExactlyOnceWith(`${reason}\n`)
    expect(emit).toHaveBeenCalledExactlyOnceWith('dsh-brake/stop', { agent, cause, reason })
    // Done: the next step and request do nothing more.
    expect(stops.stepStarting(agent, false)).toBeUndefined()
    await request()
    expect(cancel).toHaveBeenCalledOnce()
  })

  it('keeps the first stop settled in a turn', () => {
    const { stops, agent } = setup()
    stops.stepBegins(agent, 1)
    stops.callCounted(agent, { call: refused, told: undefined, chainLength: 5 })
    stops.callCounted(agent, { call: refused, told: undefined, chainLength: 6 })
    expect(stops.stepStarting(agent, false)).toMatchObject({ kind: 'last-step', notice: { content: [{ text: expect.stringContaining('5 times') as string }] } })
  })

  it('settles nothing for a call the rule lets go', () => {
    const { stops, agent } = setup()
    stops.stepBegins(agent, 1)
    stops.callCounted(agent, { call: callOf('read', { file_path: 'a.ts' }, { kind: 'read' }), told: undefined, chainLength: 0 })
    expect(stops.stepStarting(agent, false)).toBeUndefined()
  })

  it('does nothing at a request before the step entered with the notice', async () => {
    const { stops, agent, cancel, request } = setup()
    stops.stepBegins(agent, 1)
    stops.callCounted(agent, { call: refused, told: undefined, chainLength: 5 })
    await request()
    expect(cancel).not.toHaveBeenCalled()
    expect(stops.stepStarting(agent, false)?.kind).toBe('last-step')
  })

  it('rejects the step after a cancel that did not take, once, and keeps the reject while the turn is aborted', async () => {
    const { stops, agent, contain, request } = setup(false)
    stops.stepBegins(agent, 1)
    stops.callCounted(agent, { call: refused, told: undefined, chainLength: 5 })
    stops.stepStarting(agent, false)
    stops.noticeEntered(agent)
    await request()
    expect(contain).toHaveBeenCalledExactlyOnceWith('stop: cancel', expect.any(Error))
    expect(stops.stepStarting(agent, true)).toBeUndefined()
    expect(stops.stepStarting(agent, false)).toEqual({ kind: 'reject' })
    expect(stops.stepStarting(agent, false)).toBeUndefined()
  })

  it('leaves an aborted request alone: the turn ends without the hard stop', async () => {
    const { stops, agent, cancel, request } = setup()
    stops.stepBegins(agent, 1)
    stops.callCounted(agent, { call: refused, told: undefined, chainLength: 5 })
    stops.stepStarting(agent, false)
    stops.noticeEntered(agent)
    await request(true)
    expect(cancel).not.toHaveBeenCalled()
  })

  it.each<[string, (stops: StopMode, agent: Agent) => void]>([
    ['its turn ended anyway, before the model request', (stops, agent) => stops.turnEndedAnyway(agent)],
    ['the agent was forgotten', (stops, agent) => stops.forget(agent)],
    ['a new turn began', (stops, agent) => stops.stepBegins(agent, 2)],
  ])('drops a stop when %s', async (_, end) => {
    const { stops, agent, cancel, request } = setup()
    stops.stepBegins(agent, 1)
    stops.callCounted(agent, { call: refused, told: undefined, chainLength: 5 })
    stops.stepStarting(agent, false)
    stops.noticeEntered(agent)
    end(stops, agent)
    await request()
    expect(cancel).not.toHaveBeenCalled()
    expect(stops.stepStarting(agent, false)).toBeUndefined()
  })

  it('passes the request through when a part of it throws', async () => {
    const { stops, contain } = setup()
    const agent = { get session(): never { throw new Error('injected agent fault') } } as unknown as Agent
    stops.stepBegins(agent, 1)
    stops.callCounted(agent, { call: refused, told: undefined, chainLength: 5 })
    stops.stepStarting(agent, false)
    stops.noticeEntered(agent)
    await expect(requestOf(stops, agent)).resolves.toBe(config)
    expect(contain.mock.calls.map(([where]) => where as string)).toEqual(['stop: subagent', 'stop: cancel'])
  })
})
