/**
 * The brake's settings section through DSH's real settings service (the published `SettingsProvider`, held in memory
 * here where the stock profiles keep `$DSH_HOME/settings.yaml`), with the brake loaded as a profile loads it: the
 * section registered over the row's config, a write the brake refuses refused with its own words and the previous
 * settings kept, a committed change applied live with fresh counts, and nothing at all without a settings service.
 */
import { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { SettingsProvider, type SettingsNamespace } from '@deepseek-ai/dsh-settings'
import { describe, expect, it } from 'vitest'
import type { Config } from '../../src/config/keys.ts'
import {
  agent, bootDsh, brakeLogs, call, mountProfile, notices, prompt, repeat, results, say, tool, type Turn,
} from '../../scripts/dsh-loop.ts'

const NS = 'dsh-brake' as SettingsNamespace

/** A settings service over a document held in memory: what it stored is what a file provider would write. */
class MemorySettings extends SettingsProvider {
  static document: Record<string, unknown> = {}
  readonly writable = true
  readonly stored: Record<string, unknown> = {}

  protected load(): Promise<Record<string, unknown>> {
    return Promise.resolve(structuredClone(MemorySettings.document))
  }

  protected persist(ns: SettingsNamespace, section: Record<string, unknown>): Promise<void> {
    this.stored[ns] = section
    return Promise.resolve()
  }

  /** An edit of the document from outside (a person with an editor), as the file provider's watcher publishes it. */
  edit(document: Record<string, unknown>): void {
    this.publish(document)
  }
}

async function brake(config: Partial<Config> = {}, document?: Record<string, unknown>): Promise<Context> {
  const ctx = await bootDsh()
  if (document !== undefined) {
    MemorySettings.document = document
    await ctx.plugin(MemorySettings)
  }
  await mountProfile(ctx, [{ id: 'dsh-brake', config }])
  tool(ctx, 'read', args => `contents of ${String((args as { file_path?: unknown }).file_path)}`)
  tool(ctx, 'bash')
  return ctx
}

async function session(ctx: Context, script: Turn[]): Promise<Agent> {
  const { agent: target } = agent(ctx, [...script, say('done')])
  await prompt(ctx, target)
  return target
}

const refusedAt = (target: Agent): boolean[] => results(target).map(r => r.isError)

/** Let the settings service's watchers and the restart they cause settle. */
const settle = (): Promise<void> => new Promise(resolve => setTimeout(resolve, 20))

describe('the settings section', () => {
  it('is registered over the row\'s config, which is its base', async () => {
    const ctx = await brake({ callWarnCount: 3, exclude: ['todo_write'] }, {})
    const [described] = ctx.settings.describe().filter(d => d.ns === NS)
    expect(described!.base).toEqual({ mode: 'remind', callWarnCount: 3, callDenyCount: 10, streamCut: true, include: [], exclude: ['todo_write'] })
    expect(described!.value).toEqual(described!.base)
    expect(described!.user).toBeUndefined()
    // The schema a web form reads: the section's keys, each with its description.
    const schema = JSON.stringify(described!.schema)
    for (const key of ['mode', 'callWarnCount', 'callDenyCount', 'streamCut', 'include', 'exclude']) expect(schema).toContain(`"${key}"`)
    expect(schema).not.toContain('"sequenceLength"')
  })

  it('runs with a stored section from the first call', async () => {
    const ctx = await brake({}, { 'dsh-brake': { mode: 'deny', callWarnCount: 2, callDenyCount: 3 } })
    expect(refusedAt(await session(ctx, repeat(4, call('read', { file_path: 'a' }))))).toEqual([false, false, false, true])
  })

  it('applies a saved change live: deny mode refuses in the next turn', async () => {
    const ctx = await brake({ callWarnCount: 2, callDenyCount: 3 }, {})
    expect(refusedAt(await session(ctx, repeat(4, call('read', { file_path: 'a' }))))).toEqual([false, false, false, false])
    await ctx.settings.update(NS, { mode: 'deny' })
    await settle()
    expect(refusedAt(await session(ctx, repeat(4, call('read', { file_path: 'a' }))))).toEqual([false, false, false, true])
  })

  it('starts every count afresh when a change applies, as a config edit does', async () => {
    const config = { mode: 'deny', callWarnCount: 2, callDenyCount: 4 } as const
    const ctx = await brake(config, {})
    // The person saves a change while the agent is at its second identical call; the turn goes on.
    tool(ctx, 'grep', (_args, runs) => {
      if (runs === 2) void ctx.settings.update(NS, { streamCut: false })
      return 'same'
    })
    // Whether the second call is counted before the restart or after it, the fifth is at most the fourth afresh.
    expect(refusedAt(await session(ctx, repeat(5, call('grep', { pattern: 'x' }))))).toEqual([false, false, false, false, false])
    const control = await brake(config, {})
    tool(control, 'grep', () => 'same')
    expect(refusedAt(await session(control, repeat(5, call('grep', { pattern: 'x' }))))).toEqual([false, false, false, false, true])
  })

  it('refuses a value the brake refuses, at the write, in its own words, and keeps the settings in force', async () => {
    const ctx = await brake({ callWarnCount: 4 }, {})
    await expect(ctx.settings.update(NS, { mode: 'deny', callDenyCount: 3 })).rejects.toThrow(
      /^dsh-brake: `callDenyCount` must be greater than `callWarnCount` \(4\), got 3$/)
    await expect(ctx.settings.update(NS, { callWarnCount: 1 })).rejects.toThrow('dsh-brake: `callWarnCount` must be an integer >= 2, got 1')
    await expect(ctx.settings.update(NS, { mode: 'halt' })).rejects.toThrow('dsh-brake: `mode` must be one of `remind`, `deny`, `stop`, got "halt"')
    await expect(ctx.settings.update(NS, { sequenceLength: 3 })).rejects.toThrow('`sequenceLength` is not one of the settings')
    // Nothing was stored, and the brake still reminds: the tenth identical call runs.
    expect(ctx.settings.describe().find(d => d.ns === NS)!.user).toBeUndefined()
    expect(refusedAt(await session(ctx, repeat(11, call('read', { file_path: 'a' })))).some(Boolean)).toBe(false)
  })

  it('says on dsh\'s terminal when a hand edit of the document is refused, and runs on as it was', async () => {
    const ctx = await brake({ callWarnCount: 2, callDenyCount: 3 }, { 'dsh-brake': { mode: 'deny' } })
    const provider = ctx.get('settings') as MemorySettings
    provider.edit({ 'dsh-brake': { mode: 'deny', callDenyCount: 2 } })
    await settle()
    expect(brakeLogs(ctx).join('\n')).toContain('dsh-brake: a change of your `dsh-brake:` settings was refused; dsh-brake runs on with its settings as they were: `callDenyCount` must be greater than `callWarnCount` (2), got 2.')
    expect(refusedAt(await session(ctx, repeat(4, call('read', { file_path: 'a' }))))).toEqual([false, false, false, true])
  })

  it('takes a reset back to the row\'s value', async () => {
    const ctx = await brake({ mode: 'deny', callWarnCount: 2, callDenyCount: 3 }, { 'dsh-brake': { mode: 'remind' } })
    expect(refusedAt(await session(ctx, repeat(4, call('read', { file_path: 'a' })))).some(Boolean)).toBe(false)
    await ctx.settings.mutate(NS, [{ op: 'unset', path: ['mode'] }])
    await settle()
    expect(refusedAt(await session(ctx, repeat(4, call('read', { file_path: 'a' }))))).toEqual([false, false, false, true])
  })

  it('changes which tools are watched from the settings', async () => {
    const ctx = await brake({ callWarnCount: 2 }, { 'dsh-brake': { exclude: ['read'] } })
    expect(notices(await session(ctx, repeat(3, call('read', { file_path: 'a' }))))).toEqual([])
    await ctx.settings.update(NS, { exclude: [] })
    await settle()
    expect(notices(await session(ctx, repeat(3, call('read', { file_path: 'a' })))).length).toBe(1)
  })

  it('keeps the row\'s config and says why when the stored section is one it refuses', async () => {
    const ctx = await brake({ callWarnCount: 2, callDenyCount: 3, mode: 'deny' }, { 'dsh-brake': { callDenyCount: 'many' } })
    expect(refusedAt(await session(ctx, repeat(4, call('read', { file_path: 'a' }))))).toEqual([false, false, false, true])
    expect(brakeLogs(ctx).join('\n')).toContain('your `dsh-brake:` section of DSH\'s settings document was not applied; dsh-brake runs with its cordis.patch.yml config: `callDenyCount` must be an integer >= 1, got "many"')
  })

  it('goes back to the row\'s config when the settings service goes away', async () => {
    const ctx = await bootDsh()
    MemorySettings.document = { 'dsh-brake': { mode: 'deny', callWarnCount: 2, callDenyCount: 3 } }
    const provider = ctx.plugin(MemorySettings)
    await provider
    await mountProfile(ctx, [{ id: 'dsh-brake', config: { callWarnCount: 2, callDenyCount: 3 } }])
    tool(ctx, 'read')
    expect(refusedAt(await session(ctx, repeat(4, call('read', { file_path: 'a' }))))).toEqual([false, false, false, true])
    await provider.dispose()
    await settle()
    expect(refusedAt(await session(ctx, repeat(4, call('read', { file_path: 'a' })))).some(Boolean)).toBe(false)
  })

  it('leaves the section to the first of two brake rows, and the second runs with its own row', async () => {
    const ctx = await bootDsh()
    MemorySettings.document = { 'dsh-brake': { mode: 'deny', callWarnCount: 2, callDenyCount: 3 } }
    await ctx.plugin(MemorySettings)
    await mountProfile(ctx, [{ id: 'dsh-brake-2', name: 'dsh-brake', config: { callWarnCount: 5 } }])
    expect(ctx.settings.describe().filter(d => d.ns === NS)).toHaveLength(1)
    expect(brakeLogs(ctx).join('\n')).not.toContain('was not applied')
  })

  it('changes nothing without a settings service', async () => {
    const ctx = await brake({ mode: 'deny', callWarnCount: 2, callDenyCount: 3 })
    expect(ctx.get('settings')).toBeUndefined()
    expect(refusedAt(await session(ctx, repeat(4, call('read', { file_path: 'a' }))))).toEqual([false, false, false, true])
  })
})
