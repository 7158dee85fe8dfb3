/**
 * dsh-brake loaded the way a DSH profile loads it: by its bare package name through the real Loader and Include,
 * from the bundle's own `cordis.patch.yml` plus the user's patch rows. What runs is the built `dist/` behind the
 * package's `exports`, so this also catches a stray default export (the Loader would then drop `Config`) or a
 * broken build.
 */
import { describe, expect, it } from 'vitest'
import { agent, bootDsh, call, mountProfile, notices, prompt, results, say, tool, type Turn } from '../../scripts/dsh-loop.ts'

const reads = (n: number): Turn[] => Array.from({ length: n }, () => call('read', { file_path: 'a.ts' }))

async function profile(userPatch: Parameters<typeof mountProfile>[1] = []) {
  const ctx = await bootDsh()
  await mountProfile(ctx, userPatch)
  tool(ctx, 'read')
  return ctx
}

describe('loaded from a profile', () => {
  it('runs with the schema defaults from the bundle row alone', async () => {
    const ctx = await profile()
    const { agent: target } = agent(ctx, [...reads(4), say('done')])
    await prompt(ctx, target)
    expect(notices(target).map(n => n.summary)).toEqual(['read × 4, same result'])
  })

  it('takes the user config from the profile patch (a partial config keeps the other defaults)', async () => {
    const ctx = await profile([{ id: 'dsh-brake', config: { mode: 'deny', callWarnCount: 2, callDenyCount: 3 } }])
    const { agent: target } = agent(ctx, [...reads(4), say('done')])
    await prompt(ctx, target)
    expect(notices(target).map(n => n.summary)).toEqual(['read × 2, same result'])
    expect(results(target).map(r => r.isError)).toEqual([false, false, false, true])
  })

  it('fails the boot with a message naming the key, the rule and the value', async () => {
    const ctx = await bootDsh()
    await expect(mountProfile(ctx, [{ id: 'dsh-brake', config: { callWarnCount: 12 } }]))
      .rejects.toThrow('dsh-brake: `callDenyCount` must be greater than `callWarnCount` (12), got 10')
    const other = await bootDsh()
    await expect(mountProfile(other, [{ id: 'dsh-brake', config: { callWarnCnt: 3 } }]))
      .rejects.toThrow('dsh-brake: unknown config key `callWarnCnt`: did you mean `callWarnCount`?')
  })

  it('can be disabled from the profile patch without uninstalling', async () => {
    const ctx = await profile([{ id: 'dsh-brake', disabled: true }])
    const { agent: target } = agent(ctx, [...reads(7), say('done')])
    await prompt(ctx, target)
    expect(notices(target)).toHaveLength(0)
  })

  it('restarts with fresh state when its config changes, and leaves nothing behind when disabled', async () => {
    const ctx = await profile([{ id: 'dsh-brake', config: { mode: 'deny', callWarnCount: 2, callDenyCount: 3 } }])
    // A tool that edits the config mid-turn, as a user editing cordis.patch.yml would (no person message involved).
    tool(ctx, 'reconfigure', () => 'done')
    ctx.on('tools/post-execute', async (exec, _result, next) => {
      if (exec.name === 'reconfigure') {
        await ctx.loader.update('include:dsh-brake', { config: { mode: 'deny', callWarnCount: 2, callDenyCount: 4 } })
        await ctx.loader.await()
      }
      return next()
    })
    const target = agent(ctx, [...reads(2), call('reconfigure'), ...reads(2), say('a'), ...reads(5), say('b')]).agent
    await prompt(ctx, target)
    // Two notices at count 2: the restarted plugin counted the later reads from one again.
    expect(notices(target).map(n => n.summary)).toEqual(['read × 2, same result', 'read × 2, same result'])
    // Disabling the row live (as adding `disabled: true` to the patch does) disposes the plugin: no guard, no listeners.
    await ctx.loader.update('include:dsh-brake', { disabled: true })
    await ctx.loader.await()
    await prompt(ctx, target, 'once more')
    expect(results(target).some(r => r.isError)).toBe(false)
    expect(notices(target)).toHaveLength(2)
  })
})
