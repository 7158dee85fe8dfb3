/**
 * Stop mode on the real DSH agent loop, loaded through the real Loader as a profile loads it, with a scripted model
 * that ignores every notice and refusal: the turn ends before the next model request, with DSH's own hook cancel and
 * its reason in the session log; nothing claimed is lost; a person's message goes on with fresh counts; a stopped
 * subagent's reason reaches its parent's tool result; a goal is blocked with the reason.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import GoalService from '@deepseek-ai/dsh-goal'
import * as GoalRoundDriver from '@deepseek-ai/dsh-goal-round-driver'
import { SessionId } from '@deepseek-ai/dsh-session'
import { defineContentToolFixture } from '@deepseek-ai/dsh-tools'
import { describe, expect, it } from 'vitest'
import type { Config } from '../../src/config/keys.ts'
import { stopReason } from '../../src/messages/notices.ts'
import {
  agent, bootDsh, brakeLogs, call, idle, mountProfile, notices, prompt, repeat, results, say, tool, type Turn,
} from '../../scripts/dsh-loop.ts'
import { captureStderr } from '../support/stderr.ts'

async function brake(config: Partial<Config> = {}): Promise<Context> {
  const ctx = await bootDsh()
  await mountProfile(ctx, [{ id: 'dsh-brake', config: { mode: 'stop', ...config } }])
  tool(ctx, 'read', args => `contents of ${String((args as { file_path?: unknown }).file_path)}`)
  let progress = 0
  tool(ctx, 'job_output', () => `${progress += 10}% done`)
  return ctx
}

/** The reasons turns ended for, in order, as the session log keeps them. */
function turnEnds(target: Agent): unknown[] {
  return target.session.events.filter(event => event.type === 'turn/end').map(event => (event.data as { reason: unknown }).reason)
}

/** What the brake wrote for the person at the terminal. */
const reported = captureStderr()

describe('stop mode on a model that ignores every notice', () => {
  it('ends 40 identical reads after the ninth, before the tenth model request, with the reason in the session log', async () => {
    const ctx = await brake()
    const { agent: target, model } = agent(ctx, [...repeat(40, call('read', { file_path: 'a.ts' })), say('done')])
    await prompt(ctx, target)
    expect(results(target)).toHaveLength(9)
    // The prompt's request and one per executed call but the last: the tenth request was never made.
    expect(model.requests).toHaveLength(9)
    const [end] = turnEnds(target)
    expect(end).toEqual({ kind: 'aborted', reason: { kind: 'hook', reason: expect.stringContaining('`read` was called 9 times with the same arguments (same result): {"file_path":"a.ts"}') as string } })
    expect(reported()).toEqual([`${(end as { reason: { reason: string } }).reason.reason}\n`])
  })

  it('ends a four-call cycle within 40 calls, naming the cycle and its calls', async () => {
    const ctx = await brake()
    const lap: Turn[] = ['a', 'b', 'c', 'd'].map(file => call('read', { file_path: file }))
    const { agent: target } = agent(ctx, [...repeat(15, lap).flat(), say('done')])
    await prompt(ctx, target)
    expect(results(target).length).toBeLessThanOrEqual(40)
    expect(turnEnds(target)).toEqual([{ kind: 'aborted', reason: { kind: 'hook', reason: expect.stringContaining('The same 4 calls went round 8 times (32 calls): read → read → read → read') as string } }])
  })

  it('lets a poll whose output changes run all 12 calls, and the turn complete', async () => {
    const ctx = await brake()
    const { agent: target } = agent(ctx, [...repeat(12, call('job_output', { job_id: 'bash-1' })), say('done')])
    await prompt(ctx, target)
    expect(results(target)).toHaveLength(12)
    expect(turnEnds(target)).toEqual([{ kind: 'completed' }])
    expect(reported()).toEqual([])
  })

  it('closes the turn with the stop notice in the transcript, in place of the loop\'s own; the person\'s next message goes on with fresh counts', async () => {
    const ctx = await brake()
    const { agent: target, model } = agent(ctx, [...repeat(9, call('read', { file_path: 'a.ts' })), ...repeat(8, call('read', { file_path: 'a.ts' })), say('done')])
    await prompt(ctx, target)
    // The ninth call's notice would be the loop's second: the stop notice says it, one voice.
    expect(notices(target).map(n => n.summary.split(' (')[0])).toEqual(['read × 4, same result', 'turn stopped in a loop'])
    await prompt(ctx, target, 'go on')
    // The second turn runs its 8 reads and finishes: fresh counts, and its second notice would only come at 9.
    expect(results(target)).toHaveLength(17)
    expect(turnEnds(target).map(end => (end as { kind: string }).kind)).toEqual(['aborted', 'completed'])
    // The first request of the second turn carries the stopped turn's last messages, then the person's.
    const texts = model.requests[9]!.messages.map(m => m.content.map(b => b.type === 'text' ? b.text : '').join(''))
    expect(texts.slice(-2)).toEqual([
      expect.stringMatching(/^\[dsh-brake\] The turn was stopped here because a loop went on after its notice, with nothing changing\. `read` was called 9 times/) as string,
      'go on',
    ])
    expect(texts.filter(text => text.startsWith('[dsh-brake]'))).toHaveLength(2)
    expect(notices(target).map(n => n.summary.split(' (')[0])).toEqual(['read × 4, same result', 'turn stopped in a loop', 'read × 4, same result'])
  })

  it('stays quiet in deny mode: refusals, never a stop', async () => {
    const ctx = await brake({ mode: 'deny' })
    const { agent: target } = agent(ctx, [...repeat(14, call('read', { file_path: 'a.ts' })), say('done')])
    await prompt(ctx, target)
    expect(results(target)).toHaveLength(14)
    expect(turnEnds(target)).toEqual([{ kind: 'completed' }])
  })

  it('stops on a refusal after a notice, when the refusal comes first', async () => {
    const ctx = await brake({ callWarnCount: 2, callDenyCount: 3, callReWarnEvery: 10 })
    const { agent: target } = agent(ctx, [...repeat(10, call('read', { file_path: 'a.ts' })), say('done')])
    await prompt(ctx, target)
    expect(results(target).map(r => r.isError)).toEqual([false, false, false, true])
    expect(turnEnds(target)).toEqual([{ kind: 'aborted', reason: { kind: 'hook', reason: expect.stringContaining('the last of them refused') as string } }])
  })
})

describe('stop mode and subagents', () => {
  it('carries a stopped subagent\'s reason into its parent\'s failed delegation result', async () => {
    const ctx = await brake()
    let child: Agent | undefined
    const { agent: parent } = agent(ctx, [call('subagent', { prompt: 'read a.ts' }), say('done')])
    const childScript = agent(ctx, [...repeat(20, call('read', { file_path: 'a.ts' })), say('child done')])
    ctx.tools.register(defineContentToolFixture({
      name: 'subagent',
      description: 'delegate',
      parameters: {},
      async execute() {
        // A child as DSH's in-process driver creates one: its header names its parent, and it runs to idle.
        child = (await ctx.agents.create({
          sessionId: SessionId('child-1'),
          meta: { parentSession: parent.id, origin: 'subagent', delegationDepth: 1 },
          agentOptions: childScript.agent.options,
        })).agent
        await prompt(ctx, child, 'read a.ts')
        const end = child.session.events.findLast(event => event.type === 'turn/end')
        if ((end?.data as { reason: { kind: string } }).reason.kind !== 'completed') throw new Error('subagent run was cancelled')
        return [{ type: 'text', text: 'child done' }]
      },
    }))
    await prompt(ctx, parent)
    const [delegation] = results(parent)
    expect(delegation!.isError).toBe(true)
    expect(delegation!.text).toMatch(/subagent run was cancelled[\s\S]*The subagent did not fail at the task: it was stopped in a loop\. dsh-brake stopped the turn: .*`read` was called 9 times/)
    expect(turnEnds(child!)[0]).toMatchObject({ kind: 'aborted', reason: { kind: 'hook' } })
  })
})

describe('stop mode and goals', () => {
  it('in a goal run, blocks the goal with the reason as the turn ends, so no further round starts', async () => {
    const ctx = await brake()
    await ctx.plugin(GoalService, {})
    await ctx.plugin(GoalRoundDriver)
    // A model that answers every goal round by reading the same file over and over.
    const { agent: target, model } = agent(ctx, repeat(60, call('read', { file_path: 'a.ts' })))
    const done = idle(ctx, target)
    ctx.goals.create(target, { objective: 'make the tests pass', maxGoalRounds: 5 })
    await done
    await target.whenIdle()
    const reason = (turnEnds(target)[0] as { reason: { reason: string } }).reason.reason
    expect(reason).toBe(stopReason({ refused: false, loop: { kind: 'identical-calls', tool: 'read', toolClass: 'default', args: '{"file_path":"a.ts"}', count: 9, evidence: 'same-result' } }))
    expect(ctx.goals.get(target)).toMatchObject({ phase: 'blocked', blockedReason: { code: 'loop-brake', message: reason } })
    // One round, stopped after its ninth call: the goal did not go on.
    expect(turnEnds(target)).toHaveLength(1)
    expect(model.requests).toHaveLength(9)
  })
})

describe('a stop never throws into the host', () => {
  it.each<[string, (ctx: Context, target: Agent) => void, string]>([
    ['the agent\'s cancel throws: one more request, then the next step is rejected', (_ctx, target) => {
      Object.assign(target, { cancel: () => { throw new Error('injected cancel fault') } })
    }, 'blocked'],
    ['the goals service throws: the turn still ends with its reason', (ctx) => {
      ctx.provide('goals')
      ctx.set('goals', { get: () => { throw new Error('injected goals fault') } } as never)
    }, 'aborted'],
  ])('%s', async (_, inject, ending) => {
    const ctx = await brake()
    const { agent: target, model } = agent(ctx, [...repeat(20, call('read', { file_path: 'a.ts' })), say('done')])
    inject(ctx, target)
    await prompt(ctx, target)
    const calls = ending === 'blocked' ? 10 : 9
    expect(model.requests).toHaveLength(calls)
    expect(results(target)).toHaveLength(calls)
    expect((turnEnds(target)[0] as { kind: string }).kind).toBe(ending)
    expect(brakeLogs(ctx)).toEqual([expect.stringMatching(/^dsh-brake: stop: \w+ failed and was skipped; the agent is unaffected/)])
  })
})

describe('stop mode never concerns a call without an agent', () => {
  it('runs agent-less identical calls without refusal or stop', async () => {
    const ctx = await brake({ callWarnCount: 2, callDenyCount: 3 })
    for (let i = 0; i < 12; i++) {
      const result = await ctx.tools.execute({ name: 'read', arguments: { file_path: 'a' }, signal: new AbortController().signal } as never)
      expect(result.isError).toBe(false)
    }
    expect(reported()).toEqual([])
  })
})

