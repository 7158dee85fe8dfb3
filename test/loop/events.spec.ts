/**
 * The typed Cordis events: a listener plugin of its own, mounted beside dsh-brake (loaded as a profile loads it) in the
 * real DSH loop, hears each notice, refusal and stop once, as it happens, with the data that caused it; and a listener
 * that throws never reaches the agent.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { describe, expect, it } from 'vitest'
import type { BrakeNoticeEvent, BrakeRefusalEvent, BrakeStopEvent, Config } from '../../src/index.ts'
import { agent, bootDsh, brakeLogs, call, mountProfile, prompt, repeat, results, say, tool } from '../../scripts/dsh-loop.ts'
import { captureStderr } from '../support/stderr.ts'

type Heard =
  | { readonly event: 'notice'; readonly data: Omit<BrakeNoticeEvent, 'agent'> }
  | { readonly event: 'refusal'; readonly data: Omit<BrakeRefusalEvent, 'agent'> }
  | { readonly event: 'stop'; readonly data: Omit<BrakeStopEvent, 'agent'> }

/** A plugin that listens to the brake's events, as another plugin in the profile would. */
function listener(heard: Heard[], agents: Agent[]): { name: string; apply: (ctx: Context) => void } {
  // The agent is kept apart: a live agent is far too large for an assertion to print.
  const hear = (event: Heard['event'], { agent: which, ...data }: { agent: Agent }): void => {
    agents.push(which)
    heard.push({ event, data } as Heard)
  }
  return {
    name: 'brake-listener',
    apply(ctx) {
      ctx.on('dsh-brake/notice', data => hear('notice', data))
      ctx.on('dsh-brake/refusal', data => hear('refusal', data))
      ctx.on('dsh-brake/stop', data => hear('stop', data))
    },
  }
}

async function boot(config: Partial<Config>): Promise<Context> {
  const ctx = await bootDsh()
  await mountProfile(ctx, [{ id: 'dsh-brake', config }])
  tool(ctx, 'read', args => `contents of ${String((args as { file_path?: unknown }).file_path)}`)
  return ctx
}

/** The ids of the agent's tool calls, in order, as the session log has them. */
function callIds(target: Agent): string[] {
  return target.session.events.filter(event => event.type === 'tool/call').map(event => (event.data as { callId: string }).callId)
}

captureStderr()

describe('the brake\'s Cordis events', () => {
  it('tell a listener plugin of each notice, refusal and stop, in order, with what caused it', async () => {
    const ctx = await boot({ mode: 'stop', callWarnCount: 2, callDenyCount: 3, callReWarnEvery: 10 })
    const heard: Heard[] = []
    const agents: Agent[] = []
    await ctx.plugin(listener(heard, agents))
    const { agent: target } = agent(ctx, [...repeat(10, call('read', { file_path: 'a.ts' })), say('done')])
    await prompt(ctx, target)
    const ids = callIds(target)
    expect(ids).toHaveLength(4)
    expect(heard.map(h => h.event)).toEqual(['notice', 'refusal', 'stop'])
    expect(agents.every(which => which === target)).toBe(true)
    const [notice, refusal, stop] = heard as [Extract<Heard, { event: 'notice' }>, Extract<Heard, { event: 'refusal' }>, Extract<Heard, { event: 'stop' }>]
    expect(notice.data).toMatchObject({
      call: { name: 'read', callId: ids[1] }, finding: { kind: 'identical-calls', tool: 'read', count: 2 }, summary: 'read × 2, same result',
    })
    expect(notice.data.text).toMatch(/^\[dsh-brake\] You have called `read` with these exact arguments 2 times/)
    expect(refusal.data).toMatchObject({ call: { name: 'read', callId: ids[3] }, count: 3 })
    expect(results(target)[3]!.text).toBe(`Error: ${refusal.data.reason}`)
    expect(stop.data).toMatchObject({ cause: { refused: true, loop: { kind: 'identical-calls', count: 4 } } })
    const end = target.session.events.findLast(event => event.type === 'turn/end')!.data as { reason: { reason: { reason: string } } }
    expect(end.reason.reason.reason).toBe(stop.data.reason)
  })

  it('tell of a duplicate-text notice, which rides a step and no call', async () => {
    const ctx = await boot({})
    const heard: Heard[] = []
    const agents: Agent[] = []
    await ctx.plugin(listener(heard, agents))
    const hook = 'Stop hook: the task is not finished until the linter and the full test suite pass. Keep working.'
    ctx.on('tools/post-execute', async (_exec, _result, next) => {
      const decision = await next()
      const message = { content: [{ type: 'text', text: hook }], source: { kind: 'plugin', plugin: 'hooks-test' }, role: 'user', id: crypto.randomUUID() }
      return { ...decision, additionalContexts: [message as never, ...decision.additionalContexts ?? []] }
    })
    const { agent: target } = agent(ctx, [...['a', 'b', 'c'].map(file => call('read', { file_path: file })), say('done')])
    await prompt(ctx, target)
    expect(heard).toHaveLength(1)
    expect(agents).toHaveLength(1)
    expect(agents[0]).toBe(target)
    expect(heard[0]!.data).toMatchObject({ finding: { kind: 'duplicate-text' } })
    expect((heard[0]!.data as BrakeNoticeEvent).call).toBeUndefined()
  })

  it('never let a throwing listener reach the agent: the notice is given, the failure logged once', async () => {
    const ctx = await boot({})
    await ctx.plugin({ name: 'broken-listener', apply: (inner: Context) => void inner.on('dsh-brake/notice', () => { throw new Error('listener fault') }) })
    const { agent: target, model } = agent(ctx, [...repeat(9, call('read', { file_path: 'a.ts' })), say('done')])
    await prompt(ctx, target)
    expect(results(target).every(r => !r.isError)).toBe(true)
    expect(model.requests).toHaveLength(10)
    expect(brakeLogs(ctx)).toEqual([expect.stringMatching(/^dsh-brake: dsh-brake\/notice listener failed and was skipped/) as string])
  })
})
