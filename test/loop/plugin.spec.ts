/**
 * dsh-brake on the real DSH agent loop: the published tool registry, agent registry and loop, with a scripted model,
 * and the plugin loaded as a profile loads it: by its bare name through the real Loader, from the bundle's row plus a
 * user patch row (so the built `dist/` runs; `npm test` builds first). Each behaviour the plugin promises (identical
 * calls, sequence loops, duplicate context text, deny mode, reset, folding, per-agent state) is exercised here through
 * the path a real session takes; failure containment is in containment.spec.ts.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Config } from '../../src/config/keys.ts'
import {
  agent, bootDsh, call, human, idle, mountProfile, notices, prompt, repeat, results, say, tool, userMessages, type Turn,
} from '../../scripts/dsh-loop.ts'

/** Load dsh-brake into `ctx` from a profile whose patch sets `config`. */
function load(ctx: Context, config: Partial<Config>): Promise<void> {
  return mountProfile(ctx, [{ id: 'dsh-brake', config }])
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

async function brake(config: Partial<Config> = {}): Promise<Context> {
  const ctx = await bootDsh()
  await load(ctx, config)
  tool(ctx, 'read', args => `contents of ${String((args as { file_path?: unknown }).file_path)}`)
  for (const name of ['grep', 'curl', 'bash', 'todo_write']) tool(ctx, name)
  return ctx
}

/** Run one prompt through a fresh agent with this script (a final answer is appended). */
async function session(ctx: Context, script: Turn[]): Promise<Agent> {
  const { agent: target } = agent(ctx, [...script, say('done')])
  await prompt(ctx, target)
  return target
}


/** A context message another plugin would attach: a fresh id each time (the inbox rejects a pending duplicate). */
function context(text: string, plugin = 'hooks-test'): UserMessage {
  return { content: [{ type: 'text', text }], source: { kind: 'plugin', plugin }, role: 'user', id: crypto.randomUUID() } as UserMessage
}

/** Another plugin that attaches `text` as context to every tool result. */
function injectAfterEveryCall(ctx: Context, text: string, plugin = 'hooks-test'): void {
  ctx.on('tools/post-execute', async (_exec, _result, next) => {
    const decision = await next()
    return { ...decision, additionalContexts: [context(text, plugin), ...decision.additionalContexts ?? []] }
  })
}

const HOOK_TEXT = 'Stop hook: the task is not finished until the linter and the full test suite pass. Keep working.'

afterEach(() => {
  vi.useRealTimers()
})

describe('identical calls', () => {
  it('gives the first notice with the fourth identical call, then every fifth further call', async () => {
    const ctx = await brake()
    const target = await session(ctx, repeat(14, call('read', { file_path: 'a.ts' })))
    const found = notices(target)
    expect(found.map(n => n.summary)).toEqual(['read × 4, same result', 'read × 9, same result', 'read × 14, same result'])
    expect(found[0]!.text).toBe([
      '[dsh-brake] You have called `read` with these exact arguments 4 times and got the same result each time:',
      '{"file_path":"a.ts"}',
      'Calling it again will not tell you anything new. Use the result you already have, change the arguments, or take a different approach. If something is blocking you, stop and tell the user what it is.',
    ].join('\n'))
  })

  it('rides the result of the fourth call: the model reads it in the very next request, after that result', async () => {
    const ctx = await brake()
    const { agent: target, model } = agent(ctx, [...repeat(4, call('read', { file_path: 'a.ts' })), say('done')])
    await prompt(ctx, target)
    const fifth = model.requests[4]!
    const last = fifth.messages.at(-1)!
    expect(last.role).toBe('user')
    expect(last.content).toEqual([{ type: 'text', text: expect.stringContaining('4 times and got the same result each time') as string }])
    expect(model.requests[3]!.messages.some(m => m.content.some(b => b.type === 'text' && b.text.includes('[dsh-brake]')))).toBe(false)
  })

  it('counts across the whole run, not only back to back', async () => {
    const ctx = await brake()
    const script = Array.from({ length: 4 }, () => [call('read', { file_path: 'a.ts' }), call('grep', { pattern: String(Math.random()) })]).flat()
    expect(notices(await session(ctx, script)).map(n => n.summary)).toEqual(['read × 4, same result'])
  })

  it('builds each notice as strict lossless JSON with the plugin source, a bounded summary and a fresh id', async () => {
    const ctx = await brake({ callWarnCount: 2, callReWarnEvery: 1 })
    const target = await session(ctx, repeat(4, call('read', { file_path: 'a.ts' })))
    const logged = userMessages(target).filter(m => m.source.kind === 'plugin')
    expect(logged).toHaveLength(3)
    for (const message of logged) {
      expect(Object.keys(message)).toEqual(['content', 'source', 'role', 'id'])
      expect(message.role).toBe('user')
      expect(message.id).toMatch(UUID)
      expect(message.source).toEqual({ kind: 'plugin', plugin: 'dsh-brake', form: 'notice', summary: expect.any(String) as string })
      const summary = (message.source as { summary: string }).summary
      expect(summary.length).toBeGreaterThan(0)
      expect(summary.length).toBeLessThanOrEqual(120)
      expect(JSON.parse(JSON.stringify(message))).toEqual(message)
    }
    expect(new Set(logged.map(m => m.id)).size).toBe(3)
  })

  it('ignores argument key order, and counts an unparseable raw-string argument as its own value', async () => {
    const ctx = await brake({ callWarnCount: 3 })
    const reordered = await session(ctx, [call('read', { a: 1, b: 2 }), call('read', { b: 2, a: 1 }), call('read', { a: 1, b: 2 })])
    expect(notices(reordered)).toHaveLength(1)
    const raw: Turn = { calls: [{ name: 'bash', args: null, raw: '{"command": "ls' }] }
    const broken = await session(ctx, repeat(3, raw))
    expect(notices(broken).map(n => n.text.split('\n')[1])).toEqual(['"{\\"command\\": \\"ls"'])
  })

  it('counts calls that failed or were refused by a pre-execute policy', async () => {
    const ctx = await brake({ callWarnCount: 3 })
    ctx.on('tools/pre-execute', async (exec, next) => exec.name === 'curl' ? { kind: 'deny', reason: 'no network' } : next())
    const target = await session(ctx, repeat(3, call('curl', { url: 'http://example.test' })))
    expect(results(target).map(r => r.isError)).toEqual([true, true, true])
    expect(notices(target)).toHaveLength(1)
  })

  it('treats excluded tools as transparent and tracks only included ones', async () => {
    const ctx = await brake({ callWarnCount: 3, exclude: ['todo_*'], include: ['read', 'todo_*'] })
    const target = await session(ctx, [
      ...repeat(5, call('todo_write', { todos: [] })),
      ...repeat(5, call('grep', { pattern: 'x' })),
      call('read', { file_path: 'a' }), call('todo_write', {}), call('read', { file_path: 'a' }), call('read', { file_path: 'a' }),
    ])
    expect(notices(target).map(n => n.summary)).toEqual(['read × 3, same result'])
  })

  it('gives parallel identical calls in one response each a notice of their own, with distinct ids', async () => {
    const ctx = await bootDsh()
    await load(ctx, { callWarnCount: 2, callReWarnEvery: 1 })
    tool(ctx, 'probe', () => 'ok', true)
    const same = { name: 'probe', args: { q: 1 } }
    const target = await session(ctx, [{ calls: [same, same, same] }])
    const found = notices(target)
    expect(found.map(n => n.summary)).toEqual(['probe × 2, same result', 'probe × 3, same result'])
    expect(new Set(found.map(n => n.id)).size).toBe(2)
    expect(results(target).map(r => r.text)).toEqual(['ok', 'ok', 'ok'])
  })
})

describe('sequence loops', () => {
  const lap = (query: string): Turn[] => [
    call('grep', { pattern: query }), call('curl', { url: 'http://localhost:8080/health' }),
    call('read', { file_path: 'server.log' }), call('bash', { command: 'systemctl restart app' }),
  ]

  it('reports grep → curl → read → bash × 3 once, with the twelfth call', async () => {
    const ctx = await brake()
    const { agent: target, model } = agent(ctx, [...lap('error'), ...lap('error'), ...lap('error'), say('done')])
    await prompt(ctx, target)
    const found = notices(target)
    expect(found.map(n => n.summary)).toEqual(['cycle × 3: grep → curl → read → bash'])
    expect(found[0]!.text).toBe([
      '[dsh-brake] The same 4 calls have run 3 times in a row, each time with the same arguments and the same results: grep → curl → read → bash.',
      'This cycle is not making progress. Change one of its steps (other arguments or another tool), or stop and tell the user what is blocking you.',
    ].join('\n'))
    expect(JSON.stringify(model.requests[12]!.messages.at(-1))).toContain('cycle')
  })

  it('takes arguments as part of identity: a new query each lap is not a loop', async () => {
    const ctx = await brake()
    expect(notices(await session(ctx, [...lap('a'), ...lap('b'), ...lap('c')]))).toHaveLength(0)
  })

  it('reports a two-call ping-pong', async () => {
    const ctx = await brake()
    const target = await session(ctx, [call('read', { file_path: 'a' }), call('bash', { command: 'make' }), call('read', { file_path: 'a' }), call('bash', { command: 'make' }), call('read', { file_path: 'a' }), call('bash', { command: 'make' })])
    expect(notices(target).map(n => n.summary)).toEqual(['cycle × 3: read → bash'])
  })
})

describe('duplicate context text', () => {
  it('notices a block injected the third time, naming its source, appended to the step that claims it', async () => {
    const ctx = await brake()
    injectAfterEveryCall(ctx, HOOK_TEXT, 'hooks-claude-code')
    const { agent: target, model } = agent(ctx, [call('grep', { pattern: 'a' }), call('grep', { pattern: 'b' }), call('grep', { pattern: 'c' }), call('grep', { pattern: 'd' }), say('done')])
    await prompt(ctx, target)
    const found = notices(target)
    expect(found).toHaveLength(1)
    expect(found[0]!.summary).toBe('repeated text × 3 from plugin hooks-claude-code')
    expect(found[0]!.text).toBe([
      '[dsh-brake] The same text keeps arriving in your context, unchanged:',
      `- 3 times within 2 min, from plugin hooks-claude-code: "${HOOK_TEXT}"`,
      'It repeats what you already have and is not a new instruction: do not redo work because of it. If it asks for something you cannot do, tell the user instead of trying again.',
    ].join('\n'))
    // Appended after the claimed messages of the step where the third copy arrives (the fourth request).
    const messages = userMessages(target)
    const noticeAt = messages.findIndex(m => (m.source as { plugin?: string }).plugin === 'dsh-brake')
    expect(messages.slice(0, noticeAt).filter(m => (m.source as { plugin?: string }).plugin === 'hooks-claude-code')).toHaveLength(3)
    const fourth = model.requests[3]!.messages
    expect(JSON.stringify(fourth.at(-1))).toContain('keeps arriving')
    expect(JSON.stringify(fourth.at(-2))).toContain('Stop hook')
  })

  it('stays quiet for the cooldown, then needs fresh evidence within the window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(0)
    const ctx = await brake({ duplicateTextCooldownMs: 60_000 })
    injectAfterEveryCall(ctx, HOOK_TEXT)
    let clock = 0
    const tick = (ms: number): Turn => () => {
      vi.setSystemTime(clock += ms)
      return call('grep', { pattern: String(clock) })
    }
    // Copies arrive at 0 s, 1 s, 2 s (notice), 3 s, 4 s, 5 s (cooldown), 70 s (cooldown over: 4 s, 5 s, 70 s are
    // within the 2 min window → notice), 200 s and 330 s (too far apart: quiet).
    const target = await session(ctx, [
      tick(0), tick(1000), tick(1000), tick(1000), tick(1000), tick(1000), tick(65_000), tick(130_000), tick(130_000),
    ])
    expect(notices(target).map(n => n.summary)).toEqual(['repeated text × 3 from plugin hooks-test', 'repeated text × 4 from plugin hooks-test'])
  })

  it('never counts its own notices, even when they repeat word for word', async () => {
    const ctx = await brake()
    const own = { ...context(`[dsh-brake] ${HOOK_TEXT}`), source: { kind: 'plugin', plugin: 'dsh-brake', form: 'notice', summary: 's' } } as UserMessage
    const { agent: target } = agent(ctx, [call('grep', { pattern: 'a' }), call('grep', { pattern: 'b' }), call('grep', { pattern: 'c' }), say('done')])
    ctx.on('tools/post-execute', async (_exec, _result, next) => {
      const decision = await next()
      return { ...decision, additionalContexts: [{ ...own, id: crypto.randomUUID() } as UserMessage] }
    })
    await prompt(ctx, target)
    expect(notices(target).filter(n => n.text.includes('keeps arriving'))).toHaveLength(0)
  })

  it('ignores short blocks and text that only looks alike', async () => {
    const ctx = await brake()
    let n = 0
    ctx.on('tools/post-execute', async (_exec, _result, next) => {
      const decision = await next()
      n++
      return { ...decision, additionalContexts: [context('Reminder: keep going.'), context(`${HOOK_TEXT} (attempt ${n})`)] }
    })
    expect(notices(await session(ctx, Array.from({ length: 4 }, (_, i) => call('grep', { pattern: `p${i}` }))))).toHaveLength(0)
  })
})

describe('deny mode', () => {
  it('refuses the eleventh identical attempt and every one after it; refused attempts still count', async () => {
    const ctx = await brake({ mode: 'deny' })
    const target = await session(ctx, repeat(13, call('bash', { command: 'npm test' })))
    const out = results(target)
    expect(out.slice(0, 10).every(r => !r.isError && r.text === 'ok')).toBe(true)
    // Each refusal counts the ten that ran, and says how many were refused before it.
    expect(out.slice(10).map(r => r.text)).toEqual(['', ', and 1 more was refused', ', and 2 more were refused'].map(refused =>
      `Error: dsh-brake refused this call: \`bash\` has already run 10 times with these exact arguments while nothing changed${refused}; another identical call will not give a different answer. Use the results you already have, change the arguments or the approach, or stop and tell the user what is blocking you. The same call is allowed again once something changes (a successful edit, a poll that reports news) or the user speaks.`))
    // Notices at 4, 9 and 14 would be due; the fourth and ninth ran and carry theirs, refusals say it all after that.
    expect(notices(target).map(n => n.summary)).toEqual(['bash × 4, same result', 'bash × 9, same result'])
    expect(notices(target)[0]!.text).toContain('Identical calls beyond 10 are refused until something changes or the user speaks again.')
  })

  it('refuses only that exact identity: other arguments and other tools still run', async () => {
    const ctx = await brake({ mode: 'deny', callWarnCount: 2, callDenyCount: 3 })
    const target = await session(ctx, [...repeat(4, call('bash', { command: 'npm test' })), call('bash', { command: 'npm run lint' }), call('read', { file_path: 'a' })])
    expect(results(target).map(r => r.isError)).toEqual([false, false, false, true, false, false])
  })

  it('never refuses a call without an agent', async () => {
    const ctx = await brake({ mode: 'deny', callWarnCount: 2, callDenyCount: 3 })
    await session(ctx, repeat(4, call('read', { file_path: 'a' })))
    for (let i = 0; i < 5; i++) {
      const result = await ctx.tools.execute({ name: 'read', arguments: { file_path: 'a' }, signal: new AbortController().signal } as never)
      expect(result.isError).toBe(false)
    }
  })

  it('never refuses excluded tools, and stays advisory in remind mode', async () => {
    const denyCtx = await brake({ mode: 'deny', callWarnCount: 2, callDenyCount: 3, exclude: ['bash'] })
    expect(results(await session(denyCtx, repeat(6, call('bash', { command: 'x' })))).some(r => r.isError)).toBe(false)
    const remindCtx = await brake({ callWarnCount: 2, callDenyCount: 3 })
    expect(results(await session(remindCtx, repeat(12, call('bash', { command: 'x' })))).some(r => r.isError)).toBe(false)
  })

  it('unlocks when a person speaks', async () => {
    const ctx = await brake({ mode: 'deny', callWarnCount: 2, callDenyCount: 3 })
    const { agent: target } = agent(ctx, [...repeat(4, call('read', { file_path: 'a' })), say('stuck'), ...repeat(2, call('read', { file_path: 'a' })), say('done')])
    await prompt(ctx, target)
    await prompt(ctx, target, 'try again')
    expect(results(target).map(r => r.isError)).toEqual([false, false, false, true, false, false])
  })
})

describe('reset', () => {
  it('starts every count over when a person speaks', async () => {
    const ctx = await brake()
    const { agent: target } = agent(ctx, [...repeat(3, call('read', { file_path: 'a' })), say('hm'), ...repeat(3, call('read', { file_path: 'a' })), say('done')])
    await prompt(ctx, target)
    await prompt(ctx, target, 'keep going')
    expect(notices(target)).toHaveLength(0)
  })

  it('resets sequences and text evidence too', async () => {
    const pair = [call('read', { file_path: 'a' }), call('bash', { command: 'make' })]
    const config = { duplicateTextThreshold: 5 }
    // Control: in one run, three laps and six copies of the hook text give a sequence and a text notice.
    const control = await brake(config)
    injectAfterEveryCall(control, HOOK_TEXT)
    expect(notices(await session(control, [...pair, ...pair, ...pair])).map(n => n.summary.split(' ')[0])).toEqual(['repeated', 'cycle'])
    // With a person speaking after the second lap, neither appears.
    const ctx = await brake(config)
    injectAfterEveryCall(ctx, HOOK_TEXT)
    const { agent: target } = agent(ctx, [...pair, ...pair, say('hm'), ...pair, say('done')])
    await prompt(ctx, target)
    await prompt(ctx, target, 'again')
    expect(notices(target)).toHaveLength(0)
  })

  it('is not triggered by other plugins\' contexts or by its own notices', async () => {
    const ctx = await brake({ callWarnCount: 3, callReWarnEvery: 1 })
    let n = 0
    ctx.on('tools/post-execute', async (_exec, _result, next) => ({ ...await next(), additionalContexts: [context(`note ${++n}`)] }))
    const target = await session(ctx, repeat(5, call('read', { file_path: 'a' })))
    expect(notices(target).map(n => n.summary)).toEqual(['read × 3, same result', 'read × 4, same result', 'read × 5, same result'])
  })
})

describe('notices fold onto the downstream decision', () => {
  it('keeps a downstream block\'s feedback and contexts, ours first', async () => {
    const ctx = await brake({ callWarnCount: 2 })
    // Registered after the brake, so it runs inside it: the brake sees its decision as `next()`'s result.
    ctx.on('tools/post-execute', async (_exec, _result, next) => {
      await next()
      return { kind: 'block', feedback: [{ type: 'text', text: 'blocked by policy' }], additionalContexts: [context('policy note')] }
    })
    const target = await session(ctx, repeat(2, call('read', { file_path: 'a' })))
    expect(results(target).map(r => r.text)).toEqual(['blocked by policy', 'blocked by policy'])
    const contexts = userMessages(target).filter(m => m.source.kind === 'plugin').map(m => (m.source as { plugin: string }).plugin)
    expect(contexts).toEqual(['hooks-test', 'dsh-brake', 'hooks-test'])
  })

  it('keeps a downstream accept with replaced content', async () => {
    const ctx = await brake({ callWarnCount: 2 })
    ctx.on('tools/post-execute', async (_exec, _result, next) => {
      await next()
      return { kind: 'accept', content: [{ type: 'text', text: 'rewritten' }] }
    })
    const target = await session(ctx, repeat(2, call('read', { file_path: 'a' })))
    expect(results(target).map(r => r.text)).toEqual(['rewritten', 'rewritten'])
    expect(notices(target)).toHaveLength(1)
  })

  it('adds no own key holding undefined', async () => {
    const ctx = await bootDsh()
    const seen: unknown[] = []
    // Outermost observer: registered before the brake, it sees the brake's returned decision.
    ctx.on('tools/post-execute', async (_exec, _result, next) => {
      const decision = await next()
      seen.push(decision)
      return decision
    })
    await load(ctx, { callWarnCount: 2 })
    tool(ctx, 'read')
    await session(ctx, repeat(2, call('read', { file_path: 'a' })))
    expect(seen[0]).toEqual({ kind: 'accept' })
    expect(Object.keys(seen[1] as object)).toEqual(['kind', 'additionalContexts'])
  })

  it('passes a rejected step through untouched', async () => {
    const ctx = await bootDsh()
    let decision: unknown
    ctx.on('agent/pre-step', async (_payload, next) => (decision = await next()))
    await load(ctx, {})
    injectAfterEveryCall(ctx, HOOK_TEXT)
    tool(ctx, 'grep')
    let steps = 0
    ctx.on('agent/pre-step', async (_payload, next) => (++steps === 4 ? { kind: 'reject' } : next()))
    await session(ctx, repeat(3, call('grep', { pattern: String(Math.random()) })))
    expect(decision).toEqual({ kind: 'reject' })
  })
})

describe('per-agent state', () => {
  it('keeps two interleaved agents apart', async () => {
    const ctx = await brake({ callWarnCount: 4 })
    const one = agent(ctx, [...repeat(3, call('read', { file_path: 'a' })), say('done')]).agent
    const two = agent(ctx, [...repeat(3, call('read', { file_path: 'a' })), say('done')]).agent
    await Promise.all([prompt(ctx, one), prompt(ctx, two)])
    expect(notices(one)).toHaveLength(0)
    expect(notices(two)).toHaveLength(0)
  })

  it('isolates a subagent: its prompt does not reset the parent, its repeats do not count for the parent', async () => {
    const ctx = await brake({ callWarnCount: 4 })
    let child: Agent | undefined
    tool(ctx, 'delegate', () => 'delegated')
    ctx.on('tools/post-execute', async (exec, _result, next) => {
      if (exec.name === 'delegate') {
        const spawned = agent(ctx, [...repeat(4, call('read', { file_path: 'a' })), say('child done')])
        child = spawned.agent
        const done = idle(ctx, child)
        child.followup(human('task from the parent'))
        await done
      }
      return next()
    })
    const parent = await session(ctx, [...repeat(2, call('read', { file_path: 'a' })), call('delegate', {}), ...repeat(2, call('read', { file_path: 'a' }))])
    expect(notices(child!).map(n => n.summary)).toEqual(['read × 4, same result'])
    expect(notices(parent).map(n => n.summary)).toEqual(['read × 4, same result'])
  })

  it('starts fresh for a new agent that reuses a disposed agent\'s id', async () => {
    const ctx = await brake({ callWarnCount: 2 })
    const { SessionId } = await import('@deepseek-ai/dsh-session')
    const provider = agent(ctx, [call('read', { file_path: 'a' }), say('done'), call('read', { file_path: 'a' }), say('done')])
    let first!: Agent
    const fiber = await ctx.plugin(Object.assign((inner: Context) => {
      first = inner.agentLoop.create(SessionId('reused'), provider.agent.options)
    }, { inject: ['agentLoop'] }))
    await prompt(ctx, first)
    await fiber.dispose()
    await first.whenIdle()
    const second = ctx.agentLoop.create(SessionId('reused'), provider.agent.options)
    await prompt(ctx, second)
    expect(notices(second)).toHaveLength(0)
  })
})

describe('plugin disposal', () => {
  it('removes the guard and both listeners', async () => {
    const ctx = await bootDsh()
    await load(ctx, { mode: 'deny', callWarnCount: 2, callDenyCount: 3 })
    tool(ctx, 'read')
    injectAfterEveryCall(ctx, HOOK_TEXT)
    const before = await session(ctx, repeat(4, call('read', { file_path: 'a' })))
    expect(results(before).map(r => r.isError)).toEqual([false, false, false, true])
    expect(notices(before).length).toBeGreaterThan(0)
    // Disposing the plugin's fiber, as the Loader does when the row is disabled or removed.
    await ctx.loader.resolve('include:dsh-brake').fiber!.dispose()
    const after = await session(ctx, repeat(6, call('read', { file_path: 'a' })))
    expect(results(after).some(r => r.isError)).toBe(false)
    expect(notices(after)).toHaveLength(0)
  })
})
