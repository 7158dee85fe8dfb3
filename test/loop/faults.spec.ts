/**
 * Fault containment at every site: each detector, and the building of each kind of notice, made to throw in turn
 * inside a real DSH loop. The host must see every tool result and every other plugin's context unchanged, the turn
 * must complete, the failure must be logged once, and once the fault is gone the brake must work again.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import { describe, expect, it, vi } from 'vitest'
import * as Brake from '../../src/index.ts'
import { agent, bootDsh, brakeLogs, call, notices, prompt, results, say, tool, userMessages, type Turn } from '../../scripts/dsh-loop.ts'

type Site = 'identical-calls' | 'sequences' | 'error-repeats' | 'duplicate-text' | 'call notice' | 'text notice'
const fault = vi.hoisted(() => ({ site: undefined as string | undefined, thrown: 0 }))

/** Wrap a detector factory so that its `observe` throws while `fault.site` names it. */
function faulty<F extends (...args: never[]) => { observe: (...a: never[]) => unknown }>(site: string, factory: F): F {
  return ((...args: Parameters<F>) => {
    const detector = factory(...args)
    return {
      ...detector,
      observe: (...a: never[]) => {
        if (fault.site === site) {
          fault.thrown++
          throw new Error(`injected fault in ${site}`)
        }
        return detector.observe(...a)
      },
    }
  }) as F
}

vi.mock('../../src/core/detectors/identical-calls.ts', async (load) => {
  const real = await load<typeof import('../../src/core/detectors/identical-calls.ts')>()
  return { ...real, createIdenticalCallsDetector: faulty('identical-calls', real.createIdenticalCallsDetector) }
})
vi.mock('../../src/core/detectors/cycle.ts', async (load) => {
  const real = await load<typeof import('../../src/core/detectors/cycle.ts')>()
  return { ...real, createCycleDetector: faulty('sequences', real.createCycleDetector) }
})
vi.mock('../../src/core/detectors/same-error.ts', async (load) => {
  const real = await load<typeof import('../../src/core/detectors/same-error.ts')>()
  return { ...real, createSameErrorDetector: faulty('error-repeats', real.createSameErrorDetector) }
})
vi.mock('../../src/core/detectors/same-ground.ts', async (load) => {
  const real = await load<typeof import('../../src/core/detectors/same-ground.ts')>()
  return { ...real, createSameGroundDetector: faulty('revisits', real.createSameGroundDetector) }
})
vi.mock('../../src/core/detectors/near-duplicate.ts', async (load) => {
  const real = await load<typeof import('../../src/core/detectors/near-duplicate.ts')>()
  return { ...real, createNearDuplicateDetector: faulty('near-duplicates', real.createNearDuplicateDetector) }
})
vi.mock('../../src/core/detectors/rereading.ts', async (load) => {
  const real = await load<typeof import('../../src/core/detectors/rereading.ts')>()
  return { ...real, createRereadingDetector: faulty('rereading', real.createRereadingDetector) }
})
vi.mock('../../src/core/detectors/edit-revert.ts', async (load) => {
  const real = await load<typeof import('../../src/core/detectors/edit-revert.ts')>()
  return { ...real, createEditRevertDetector: faulty('edit-revert', real.createEditRevertDetector) }
})
vi.mock('../../src/core/detectors/same-failure.ts', async (load) => {
  const real = await load<typeof import('../../src/core/detectors/same-failure.ts')>()
  return { ...real, createSameFailureDetector: faulty('same-failure', real.createSameFailureDetector) }
})
vi.mock('../../src/core/detectors/duplicate-text.ts', async (load) => {
  const real = await load<typeof import('../../src/core/detectors/duplicate-text.ts')>()
  return { ...real, createDuplicateTextDetector: faulty('duplicate-text', real.createDuplicateTextDetector) }
})
vi.mock('../../src/core/stream/runaway-watch.ts', async (load) => {
  const real = await load<typeof import('../../src/core/stream/runaway-watch.ts')>()
  return {
    ...real,
    RunawayWatch: class extends real.RunawayWatch {
      override push(text: string): ReturnType<InstanceType<typeof real.RunawayWatch>['push']> {
        if (fault.site === 'runaway watch') throw new Error('injected fault in the runaway watch')
        return super.push(text)
      }
    },
  }
})
vi.mock('../../src/core/detectors/same-response.ts', async (load) => {
  const real = await load<typeof import('../../src/core/detectors/same-response.ts')>()
  return { ...real, createSameResponseDetector: faulty('responses', real.createSameResponseDetector) }
})
vi.mock('../../src/messages/notices.ts', async (load) => {
  const real = await load<typeof import('../../src/messages/notices.ts')>()
  const broken = <A extends unknown[], R>(site: string, build: (...args: A) => R) => (...args: A): R => {
    if (fault.site === site) throw new Error(`injected fault building a ${site}`)
    return build(...args)
  }
  return {
    ...real,
    loopNotice: broken('call notice', real.loopNotice),
    duplicateTextNotice: broken('text notice', real.duplicateTextNotice),
    findingNotice: broken('cut notice', real.findingNotice),
  }
})

const HOOK = 'Stop hook: the task is not finished until the linter and the full test suite pass. Keep working.'

/**
 * A turn that trips every detector, each on a loop of its own (one loop gets one notice): identical reads, an A-B cycle
 * of other calls, one error across two paths, a repeated hook text.
 */
const tripAll: Turn[] = [
  call('read', { file_path: 'a' }), call('read', { file_path: 'a' }), call('read', { file_path: 'a' }),
  call('bash', { command: 'make' }), call('bash', { command: 'test' }), call('bash', { command: 'make' }), call('bash', { command: 'test' }),
  call('grep', { pattern: 'missing-1' }), call('grep', { pattern: 'missing-2' }),
]

async function host(): Promise<Context> {
  const ctx = await bootDsh()
  await ctx.plugin(Brake, { callWarnCount: 3, sequenceCount: 2, errorRepeatCount: 2, duplicateTextThreshold: 2 })
  tool(ctx, 'read', () => 'contents')
  tool(ctx, 'bash', () => 'built')
  tool(ctx, 'grep', (args) => {
    throw new Error(`cannot search "${(args as { pattern: string }).pattern}": not found`)
  })
  let n = 0
  ctx.on('tools/post-execute', async (_exec, _result, next) => {
    const decision = await next()
    const theirs = { content: [{ type: 'text', text: HOOK }], source: { kind: 'plugin', plugin: 'hooks-test' }, role: 'user', id: `hook-${++n}` } as UserMessage
    return { ...decision, additionalContexts: [...decision.additionalContexts ?? [], theirs] }
  })
  return ctx
}

/** The listener each logged failure names (`dsh-brake: <where> failed …`). */
function failedSites(ctx: Context): string[] {
  return brakeLogs(ctx).map(line => line.slice('dsh-brake: '.length, line.indexOf(' failed')))
}

describe('a fault at any site is contained', () => {
  it.each<[Site, string]>([
    ['identical-calls', 'tools/post-execute: the identical-calls detector'],
    ['sequences', 'tools/post-execute: the sequences detector'],
    ['error-repeats', 'tools/post-execute: the error-repeats detector'],
    ['duplicate-text', 'agent/pre-step'],
    ['call notice', 'tools/post-execute'],
    ['text notice', 'agent/pre-step'],
  ])('%s', async (site, where) => {
    const ctx = await host()
    const { agent: target, model } = agent(ctx, [...tripAll, say('first'), ...tripAll, say('second')])
    fault.site = site
    await prompt(ctx, target)
    const faulted = results(target).length
    // The host saw every call's real result and every hook context, and the turn completed.
    expect(results(target).map(r => r.text)).toEqual(['contents', 'contents', 'contents', 'built', 'built', 'built', 'built',
      'Error: cannot search "missing-1": not found', 'Error: cannot search "missing-2": not found'])
    expect(userMessages(target).filter(m => (m.source as { plugin?: string }).plugin === 'hooks-test')).toHaveLength(9)
    expect(model.requests).toHaveLength(10)
    expect(failedSites(ctx)).toEqual([where])
    // Fault gone: the next turn (a person spoke, so counts start over) draws every kind of notice again.
    fault.site = undefined
    const before = notices(target).length
    await prompt(ctx, target, 'again')
    expect(results(target)).toHaveLength(faulted * 2)
    const fresh = notices(target).slice(before).map(n => n.summary.split(' ')[0])
    expect(new Set(fresh)).toEqual(new Set(['read', 'cycle', 'grep', 'repeated']))
    expect(failedSites(ctx)).toHaveLength(1)
  })
})

describe('a call detector that throws is switched off for that agent; the others go on', () => {
  /** The first word of each notice's summary a turn of `tripAll` draws from the detectors other than the faulty one. */
  const others: Record<string, string[]> = {
    'identical-calls': ['cycle', 'grep'],
    'error-repeats': ['read', 'cycle'],
    'sequences': ['read', 'grep'],
    'revisits': ['read', 'cycle', 'grep'],
    'near-duplicates': ['read', 'cycle', 'grep'],
    'rereading': ['read', 'cycle', 'grep'],
    'edit-revert': ['read', 'cycle', 'grep'],
    'same-failure': ['read', 'cycle', 'grep'],
  }

  it.each(Object.keys(others))('%s', async (site) => {
    const ctx = await host()
    const { agent: target, model } = agent(ctx, [...tripAll, say('first'), ...tripAll, say('second')])
    fault.site = site
    fault.thrown = 0
    await prompt(ctx, target)
    // The host saw every result and every hook context, and the turn completed.
    expect(results(target).map(r => r.text)).toEqual(['contents', 'contents', 'contents', 'built', 'built', 'built', 'built',
      'Error: cannot search "missing-1": not found', 'Error: cannot search "missing-2": not found'])
    expect(userMessages(target).filter(m => (m.source as { plugin?: string }).plugin === 'hooks-test')).toHaveLength(9)
    expect(model.requests).toHaveLength(10)
    // The other detectors told their loops in the very turn the faulty one threw in.
    const told = new Set(notices(target).map(n => n.summary.split(' ')[0]))
    for (const kind of others[site]!) expect(told).toContain(kind)
    // Thrown once, then left alone for the rest of the turn; said once.
    expect(fault.thrown).toBe(1)
    expect(failedSites(ctx)).toEqual([`tools/post-execute: the ${site} detector`])
    fault.site = undefined
  })

  it('stays off for that agent only: another agent, and the same agent after a person speaks, have it again', async () => {
    const ctx = await host()
    const first = agent(ctx, [...tripAll, say('first'), ...tripAll, say('second')])
    fault.site = 'identical-calls'
    fault.thrown = 0
    await prompt(ctx, first.agent)
    fault.site = undefined
    expect(notices(first.agent).map(n => n.summary.split(' ')[0])).not.toContain('read')
    const second = agent(ctx, [...tripAll, say('done')])
    await prompt(ctx, second.agent)
    expect(notices(second.agent).map(n => n.summary.split(' ')[0])).toContain('read')
    const before = notices(first.agent).length
    await prompt(ctx, first.agent, 'again')
    expect(notices(first.agent).slice(before).map(n => n.summary.split(' ')[0])).toContain('read')
    expect(fault.thrown).toBe(1)
  })
})

describe('a fault while watching a response stream is contained', () => {
  const LOOPING = `Done. ${'Everything is complete. '.repeat(400)}`

  async function streaming(): Promise<Context> {
    const ctx = await bootDsh()
    await ctx.plugin(Brake, { duplicateTextThreshold: 2 })
    return ctx
  }

  it('in the runaway watch: the response streams whole, as it came, and the failure is logged once', async () => {
    const ctx = await streaming()
    const { agent: target, model } = agent(ctx, [{ text: LOOPING.split(/(?<= )/) }, { text: LOOPING.split(/(?<= )/) }])
    fault.site = 'runaway watch'
    await prompt(ctx, target)
    await prompt(ctx, target, 'again')
    expect(model.streams.map(stream => stream.closedEarly)).toEqual([false, false])
    expect(target.session.events.filter(event => event.type === 'assistant/message')
      .map(event => (event.data as { message: { content: { text: string }[] } }).message.content[0]!.text)).toEqual([LOOPING, LOOPING])
    expect(failedSites(ctx)).toEqual(['llm/stream'])
    fault.site = undefined
  })

  it('in the notice after a cut: the response is still cut and the turn completes', async () => {
    const ctx = await streaming()
    const { agent: target, model } = agent(ctx, [{ text: LOOPING.split(/(?<= )/) }, say('ok')])
    fault.site = 'cut notice'
    await prompt(ctx, target)
    fault.site = undefined
    expect(model.streams.map(stream => stream.closedEarly)).toEqual([true])
    expect(notices(target)).toEqual([])
    expect(target.session.events.findLast(event => event.type === 'turn/end')?.data).toMatchObject({ reason: { kind: 'completed' } })
    expect(failedSites(ctx)).toEqual(['llm/stream: after a cut'])
  })

  it('in the detector of repeated responses: the answers pass, the failure is logged once', async () => {
    const ctx = await streaming()
    const { agent: target, model } = agent(ctx, [say('The same answer, long enough to count.'), say('The same answer, long enough to count.')])
    fault.site = 'responses'
    await prompt(ctx, target)
    await prompt(ctx, target, 'again')
    fault.site = undefined
    expect(model.requests).toHaveLength(2)
    expect(target.session.events.filter(event => event.type === 'turn/end').map(event => (event.data as { reason: { kind: string } }).reason.kind))
      .toEqual(['completed', 'completed'])
    expect(failedSites(ctx)).toEqual(['llm/stream'])
  })
})
