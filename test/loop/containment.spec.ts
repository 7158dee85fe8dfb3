/**
 * Never break the host: a failure inside the brake is contained, logged once, and the downstream decision passes
 * through unchanged. Faults are injected into the detectors (module mock); everything else is the real DSH loop.
 */
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import { describe, expect, it, vi } from 'vitest'
import * as Brake from '../../src/index.ts'
import { agent, bootDsh, brakeLogs, call, notices, prompt, results, say, tool, userMessages, type Turn } from '../../scripts/dsh-loop.ts'

const faults = vi.hoisted(() => ({ call: new Set<string>(), text: false, identify: new Set<string>() }))

vi.mock('../../src/core/identity/canonical.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/identity/canonical.ts')>()
  return {
    ...real,
    // identify keys a call from its tool's seed, taken once per tool name: the fault is injected where the key is made.
    argumentsKey: (seed: number, args: unknown) => {
      for (const tool of faults.identify) if (seed === real.toolSeed(tool)) throw new Error(`injected identity fault for ${tool}`)
      return real.argumentsKey(seed, args)
    },
  }
})

vi.mock('../../src/core/brake-state.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/brake-state.ts')>()
  return {
    ...real,
    createBrakeState: (options: Parameters<typeof real.createBrakeState>[0]) => {
      const state = real.createBrakeState(options)
      // The state with two of its methods made to throw on demand; every other method is the state's own.
      const faulty: Partial<typeof state> = {
        observeCall(observation) {
          if (faults.call.has(observation.tool)) throw new Error(`injected fault for ${observation.tool}`)
          return state.observeCall(observation)
        },
        observeText(observation) {
          if (faults.text) throw new Error('injected text fault')
          return state.observeText(observation)
        },
      }
      return new Proxy(state, {
        get: (target, name: keyof typeof state) => faulty[name] ?? target[name].bind(target),
      })
    },
  }
})

const otherContext = (): UserMessage => ({
  content: [{ type: 'text', text: 'downstream context' }], source: { kind: 'plugin', plugin: 'other' }, role: 'user', id: crypto.randomUUID(),
} as UserMessage)

describe('failures are contained', () => {
  it('in post-execute: the result and downstream contexts arrive intact, logged once, later calls still observed', async () => {
    faults.call = new Set(['explode'])
    faults.text = false
    const ctx = await bootDsh()
    await ctx.plugin(Brake, { callWarnCount: 2 })
    tool(ctx, 'explode', () => 'explode result')
    tool(ctx, 'read')
    ctx.on('tools/post-execute', async (_exec, _result, next) => ({ ...await next(), additionalContexts: [otherContext()] }))
    const script: Turn[] = [call('explode'), call('explode'), call('explode'), call('read', { f: 1 }), call('read', { f: 1 }), say('done')]
    const { agent: target } = agent(ctx, script)
    await prompt(ctx, target)
    expect(results(target)).toEqual([
      ...Array.from({ length: 3 }, () => ({ name: 'explode', text: 'explode result', isError: false })),
      { name: 'read', text: 'ok', isError: false },
      { name: 'read', text: 'ok', isError: false },
    ])
    expect(userMessages(target).filter(m => (m.source as { plugin?: string }).plugin === 'other')).toHaveLength(5)
    expect(notices(target).map(n => n.summary)).toEqual(['read × 2, same result'])
    const logs = brakeLogs(ctx)
    expect(logs).toHaveLength(1)
    expect(logs[0]).toContain('tools/post-execute failed and was skipped')
  })

  it('in pre-step: the step is entered with its messages, the turn goes on, logged once', async () => {
    faults.call = new Set()
    faults.text = true
    const ctx = await bootDsh()
    await ctx.plugin(Brake, {})
    tool(ctx, 'grep')
    ctx.on('tools/post-execute', async (_exec, _result, next) => ({ ...await next(), additionalContexts: [otherContext()] }))
    const { agent: target, model } = agent(ctx, [call('grep', { q: 1 }), call('grep', { q: 2 }), say('done')])
    await prompt(ctx, target)
    expect(model.requests).toHaveLength(3)
    expect(JSON.stringify(model.requests[2]!.messages.at(-1))).toContain('downstream context')
    expect(brakeLogs(ctx)).toHaveLength(1)
    expect(brakeLogs(ctx)[0]).toContain('agent/pre-step failed and was skipped')
  })

  it('in the guard: the call runs (the guard abstains, never throws), logged once, later calls still guarded', async () => {
    faults.call = new Set()
    faults.text = false
    faults.identify = new Set()
    const ctx = await bootDsh()
    await ctx.plugin(Brake, { mode: 'deny', callWarnCount: 2, callDenyCount: 3 })
    tool(ctx, 'read')
    const poisoned: Turn = () => {
      faults.identify = new Set(['read'])
      return call('read', { f: 1 })
    }
    const healed: Turn = () => {
      faults.identify = new Set()
      return call('read', { f: 1 })
    }
    const { agent: target } = agent(ctx, [...Array.from({ length: 3 }, () => call('read', { f: 1 })), poisoned, poisoned, healed, say('done')])
    await prompt(ctx, target)
    // Three runs, two poisoned attempts that the guard could not judge (they run), then a refusal again.
    expect(results(target).map(r => r.isError)).toEqual([false, false, false, false, false, true])
    expect(brakeLogs(ctx).map(line => line.split(' failed')[0])).toEqual(['dsh-brake: guard', 'dsh-brake: tools/post-execute'])
  })
})
