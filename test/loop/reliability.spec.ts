/**
 * Reliability on the real DSH loop and waterfalls: hostile input, parallel calls racing the guard, the plugin
 * disposed in the middle of a run, and the stock repeat-tool-reminder mounted beside it.
 */
import { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import * as Reminder from '@deepseek-ai/dsh-repeat-tool-reminder'
import { describe, expect, it } from 'vitest'
import * as Brake from '../../src/index.ts'
import { agent, bootDsh, brakeLogs, call, notices, prompt, repeat, results, say, tool, userMessages } from '../../scripts/dsh-loop.ts'

const signal = new AbortController().signal


/** A bare context with the plugin, and its two waterfalls as DSH dispatches them. */
async function waterfalls(config: object = {}) {
  const ctx = new Context()
  await ctx.plugin(Brake, { callWarnCount: 2, duplicateTextThreshold: 2, ...config })
  const waterfall = (ctx as unknown as { waterfall: (...a: unknown[]) => Promise<unknown> }).waterfall.bind(ctx)
  let n = 0
  return {
    ctx,
    post: (agentRef: object | undefined, name: string, args: unknown, text = 'ok') => waterfall('tools/post-execute',
      { token: Symbol('t'), callId: `c${++n}`, rootCallId: `c${n}`, name, signal, arguments: args, ...agentRef === undefined ? {} : { agent: agentRef } },
      Object.freeze({ isError: false, value: null, content: [{ type: 'text', text }] }),
      () => Promise.resolve({ kind: 'accept' })) as Promise<{ additionalContexts?: { content: { text: string }[] }[] }>,
    step: (agentRef: object, messages: unknown[]) => waterfall('agent/pre-step', { agent: agentRef, messages, turn: 1, step: ++n, signal },
      () => Promise.resolve({ kind: 'enter', messages })) as Promise<{ messages: { content: { text: string }[] }[] }>,
  }
}

describe('downstream listeners', () => {
  it('a downstream listener that answers synchronously keeps its decision and gets the notice', async () => {
    const ctx = new Context()
    await ctx.plugin(Brake, { callWarnCount: 2 })
    // Registered after the brake, so it runs downstream of it; it answers with a plain object, not a promise.
    ;(ctx as unknown as { on: (name: string, listener: () => unknown) => void }).on('tools/post-execute', () => ({ kind: 'accept', additionalContexts: [{ id: 'theirs' }] }))
    const waterfall = (ctx as unknown as { waterfall: (...a: unknown[]) => unknown }).waterfall.bind(ctx)
    const agentRef = {}
    const post = () => waterfall('tools/post-execute', { token: Symbol('t'), callId: 'c', rootCallId: 'c', name: 'read', signal, arguments: { f: 1 }, agent: agentRef },
      Object.freeze({ isError: false, value: null, content: [{ type: 'text', text: 'same' }] }), () => Promise.resolve({ kind: 'accept' }))
    expect(await post()).toEqual({ kind: 'accept', additionalContexts: [{ id: 'theirs' }] })
    const decision = await post() as { kind: string; additionalContexts: { id: string; source?: { plugin?: string } }[] }
    expect(decision.kind).toBe('accept')
    expect(decision.additionalContexts.map(c => c.source?.plugin ?? c.id)).toEqual(['dsh-brake', 'theirs'])
    expect(brakeLogs(ctx)).toEqual([])
  })
})

describe('hostile input', () => {
  it('10 MB arguments: noticed by fingerprint, quoted as a bounded preview', async () => {
    const { ctx, post } = await waterfalls()
    const huge = { content: 'x'.repeat(10_000_000) }
    const agentRef = {}
    await post(agentRef, 'write', huge)
    const decision = await post(agentRef, 'write', huge)
    const text = decision.additionalContexts![0]!.content[0]!.text
    expect(text.length).toBeLessThan(1000)
    expect(text).toContain('more chars)')
    expect(brakeLogs(ctx)).toEqual([])
  })

  it('100 000 levels of nesting: not watched, no failure', async () => {
    const { ctx, post } = await waterfalls()
    let deep: unknown = 0
    for (let i = 0; i < 100_000; i++) deep = { d: deep }
    const agentRef = {}
    for (let i = 0; i < 3; i++) expect(await post(agentRef, 'read', deep)).toEqual({ kind: 'accept' })
    expect(brakeLogs(ctx)).toEqual([])
  })

  it.each([
    ['a raw string', '{"file_path": "a.ts'],
    ['lone surrogates', { path: 'a\uD800b\uDFFF' }],
    ['other odd Unicode', { path: '\u0000\u200B\uFEFF\u{1F600}\u202E' }],
    ['frozen nested arrays', Object.freeze([Object.freeze({ a: [1, 2, Object.freeze({ b: null })] })])],
    ['null', null],
  ])('%s as arguments', async (_, args) => {
    const { ctx, post } = await waterfalls()
    const agentRef = {}
    await post(agentRef, 'read', args, 'same\uD800')
    const decision = await post(agentRef, 'read', args, 'same\uD800')
    const notice = decision.additionalContexts![0]!
    expect(JSON.parse(JSON.stringify(notice))).toEqual(notice)
    expect(brakeLogs(ctx)).toEqual([])
  })

  it('calls without an agent are ignored', async () => {
    const { ctx, post } = await waterfalls()
    for (let i = 0; i < 3; i++) expect(await post(undefined, 'read', {})).toEqual({ kind: 'accept' })
    expect(brakeLogs(ctx)).toEqual([])
  })

  it('claimed messages with odd content, unknown sources and no text', async () => {
    const { ctx, step } = await waterfalls()
    const agentRef = {}
    const paragraph = 'A paragraph long enough to be counted, repeated by an unknown kind of source, odd and all. \uD800'
    let n = 0
    const message = (content: unknown, source: unknown) => Object.freeze({ content, source, role: 'user', id: `m${++n}` })
    const batch = () => [
      message([], { kind: 'plugin', plugin: 'x' }),
      message([{ type: 'image', attachment: { attachmentId: 'a', mediaType: 'image/png', bytes: 1, width: 1, height: 1 } }], { kind: 'plugin' }),
      message([{ type: 'tool-result', toolCallId: 'c', content: [{ type: 'text', text: paragraph }] }], { kind: 'tool', callId: 'c' }),
      message([{ type: 'text', text: '' }, { type: 'text', text: paragraph }], { kind: 'brand-new-kind' }),
    ]
    await step(agentRef, batch())
    const decision = await step(agentRef, batch())
    const ours = decision.messages.slice(4)
    expect(ours).toHaveLength(1)
    expect(ours[0]!.content[0]!.text).toContain('from brand-new-kind')
    expect(brakeLogs(ctx)).toEqual([])
  })
})

describe('concurrency and lifecycle on the real loop', () => {
  it('parallel identical calls race the guard: the guard sees only finished calls, nothing breaks', async () => {
    const ctx = await bootDsh()
    await ctx.plugin(Brake, { mode: 'deny', callWarnCount: 2, callDenyCount: 3 })
    tool(ctx, 'read', () => 'same', true)
    const same = { name: 'read', args: { file_path: 'a.ts' } }
    const { agent: target } = agent(ctx, [{ calls: [same, same, same, same, same, same] }, call('read', { file_path: 'a.ts' }), say('done')])
    await prompt(ctx, target)
    // The registry runs the guards of parallel calls as the calls are dispatched and counts each call as it settles;
    // the listener counts without waiting a turn, so three calls are counted before the fourth guard asks, and from
    // then on the chain holds and the rest are refused.
    expect(results(target).map(r => r.isError)).toEqual([false, false, false, true, true, true, true])
    expect(notices(target).map(n => n.summary)).toEqual(['read × 2, same result'])
    expect(brakeLogs(ctx)).toEqual([])
  })

  it('the plugin disposed in the middle of a run: the run goes on, unwatched', async () => {
    const ctx = await bootDsh()
    const fiber = await ctx.plugin(Brake, { mode: 'deny', callWarnCount: 2, callDenyCount: 3 })
    tool(ctx, 'read', () => 'same')
    tool(ctx, 'unload', () => 'unloading')
    ctx.on('tools/post-execute', async (exec, _result, next) => {
      if (exec.name === 'unload') await fiber.dispose()
      return next()
    })
    const { agent: target } = agent(ctx, [...repeat(2, call('read', { file_path: 'a' })), call('unload'), ...repeat(4, call('read', { file_path: 'a' })), say('done')])
    await prompt(ctx, target)
    expect(results(target).map(r => r.isError)).toEqual([false, false, false, false, false, false, false])
    expect(notices(target).map(n => n.summary)).toEqual(['read × 2, same result'])
  })

  it('a new agent over an old session id (as a resumed session is) starts with fresh state', async () => {
    const ctx = await bootDsh()
    await ctx.plugin(Brake, { callWarnCount: 2 })
    tool(ctx, 'read', () => 'same')
    // One scripted model for both agents: the second plays the rest of the script.
    const first = agent(ctx, [call('read', { file_path: 'a' }), say('done'), call('read', { file_path: 'a' }), say('done')])
    await prompt(ctx, first.agent)
    const { SessionId } = await import('@deepseek-ai/dsh-session')
    let second!: Agent
    const owner = await ctx.plugin(Object.assign((inner: Context) => {
      second = inner.agentLoop.create(SessionId('resumed-like'), first.agent.options)
    }, { inject: ['agentLoop'] }))
    expect(owner).toBeDefined()
    await prompt(ctx, second)
    expect(results(second).map(r => r.text)).toEqual(['same'])
    expect(notices(second)).toEqual([])
  })
})

describe('beside the stock repeat-tool-reminder', () => {
  /** The plugin notices of an agent's session, as `plugin: summary`. */
  const heard = (target: Parameters<typeof userMessages>[0]): string[] => userMessages(target)
    .filter(m => m.source.kind === 'plugin').map(m => m.source as { plugin: string; summary?: string }).map(s => `${s.plugin}: ${s.summary}`)

  it('one voice: the brake does not repeat what the reminder just said, and speaks at its own next notice', async () => {
    const ctx = await bootDsh()
    await ctx.plugin(Reminder, {})
    await ctx.plugin(Brake, {})
    tool(ctx, 'read', () => 'same')
    const { agent: target } = agent(ctx, [...repeat(14, call('read', { file_path: 'a.ts' })), say('done')])
    await prompt(ctx, target)
    expect(heard(target)).toEqual([
      'repeat-tool-reminder: read × 3',
      'repeat-tool-reminder: read × 5',
      'repeat-tool-reminder: read × 8',
      'dsh-brake: read × 14, same result',
    ])
  })

  it.each(['deny', 'stop'] as const)('%s mode: no notice one call after the reminder\'s; the first refusal is the next word', async (mode) => {
    const ctx = await bootDsh()
    await ctx.plugin(Reminder, {})
    await ctx.plugin(Brake, { mode })
    tool(ctx, 'read', () => 'same')
    const { agent: target } = agent(ctx, [...repeat(12, call('read', { file_path: 'a.ts' })), say('done')])
    await prompt(ctx, target)
    // The reminder at 3, 5 and 8 leaves no call before the refusals at 11 that is clear of it by five.
    const reminders = ['repeat-tool-reminder: read × 3', 'repeat-tool-reminder: read × 5', 'repeat-tool-reminder: read × 8']
    expect(heard(target).slice(0, 3)).toEqual(reminders)
    expect(heard(target).filter(row => row.startsWith('dsh-brake: read'))).toEqual([])
    expect(results(target).findIndex(r => r.isError) + 1).toBe(11)
    if (mode === 'stop') expect(heard(target).slice(3)).toEqual(['dsh-brake: turn stopped in a loop (read × 11, same result); send a message to go on'])
  })

  it('deny mode: the warning of refusals rides a later notice, clear of the reminder\'s and before the refusals', async () => {
    const ctx = await bootDsh()
    await ctx.plugin(Reminder, { thresholds: [3] })
    await ctx.plugin(Brake, { mode: 'deny' })
    tool(ctx, 'read', () => 'same')
    const { agent: target } = agent(ctx, [...repeat(10, call('read', { file_path: 'a.ts' })), say('done')])
    await prompt(ctx, target)
    expect(heard(target)).toEqual(['repeat-tool-reminder: read × 3', 'dsh-brake: read × 9, same result'])
    expect(notices(target)[0]!.text).toContain('Identical calls beyond 10 are refused')
  })
})

describe('folding onto what comes from downstream', () => {
  it('keeps an accept that replaces the value, adding only our contexts (no content key)', async () => {
    const ctx = new Context()
    await ctx.plugin(Brake, { callWarnCount: 2 })
    const waterfall = (ctx as unknown as { waterfall: (...a: unknown[]) => Promise<Record<string, unknown>> }).waterfall.bind(ctx)
    const agentRef = {}
    let decision: Record<string, unknown> = {}
    for (let i = 0; i < 2; i++) {
      decision = await waterfall('tools/post-execute',
        { token: Symbol('t'), callId: `c${i}`, rootCallId: `c${i}`, name: 'read', signal, agent: agentRef, arguments: {} },
        Object.freeze({ isError: false, value: null, content: [{ type: 'text', text: 'ok' }] }),
        () => Promise.resolve({ kind: 'accept', value: { answer: 42 } }))
    }
    expect(Object.keys(decision)).toEqual(['kind', 'value', 'additionalContexts'])
    expect(decision['value']).toEqual({ answer: 42 })
  })

  it('passes a step whose signal is aborted through untouched', async () => {
    const { step } = await waterfalls()
    const agentRef = {}
    const text = 'A paragraph long enough to be counted, arriving twice in one step, which would draw a notice.'
    const message = (id: string) => ({ content: [{ type: 'text', text }], source: { kind: 'plugin', plugin: 'x' }, role: 'user', id })
    const aborted = AbortSignal.abort()
    const ctx = new Context()
    await ctx.plugin(Brake, { duplicateTextThreshold: 2 })
    const waterfall = (ctx as unknown as { waterfall: (...a: unknown[]) => Promise<unknown> }).waterfall.bind(ctx)
    const messages = [message('a'), message('b')]
    const enter = { kind: 'enter', messages }
    expect(await waterfall('agent/pre-step', { agent: agentRef, messages, turn: 1, step: 1, signal: aborted }, () => Promise.resolve(enter))).toBe(enter)
    // The same step with a live signal does get the notice: the check above is not vacuous.
    const live = await step({}, [message('c'), message('d')])
    expect(live.messages).toHaveLength(3)
  })
})
