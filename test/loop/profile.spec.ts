/**
 * dsh-brake loaded the way a DSH profile loads it: by its bare package name through the real Loader and Include,
 * from the bundle's own `cordis.patch.yml` plus the user's patch rows. What runs is the built `dist/` behind the
 * package's `exports`, so this also catches a stray default export (the Loader would then drop `Config`) or a
 * broken build.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import { entryListSchema, type PatchOptions } from '@deepseek-ai/cordis-plugin-include'
import yaml from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { agent, bootDsh, call, mountProfile, notices, prompt, results, say, tool, type Turn } from '../../scripts/dsh-loop.ts'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'
import { captureStderr } from '../support/stderr.ts'

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

  it('marks its notices in DSH\'s telemetry records with the severity the profile patch names', async () => {
    type Seam = { waterfall(name: string, input: unknown, inner: () => unknown): { severity: string; attributes: Record<string, unknown> } }
    const ctx = await bootDsh()
    // What DSH's telemetry backend registers where it is mounted; the brake marks records only there.
    ctx.provide('sessionTelemetry')
    ctx.set('sessionTelemetry', {})
    await mountProfile(ctx, [{ id: 'dsh-brake', config: { telemetryNoticeSeverity: 'warn' } }])
    const source = { kind: 'plugin', plugin: 'dsh-brake', form: 'notice', summary: 'read × 4, same result' }
    const input = {
      channel: 'ledger', time: 1, severity: 'info', attributes: { 'session.id': 's', 'event.type': 'user/message', 'event.seq': 3 },
      body: { role: 'user', id: 'm', content: [{ type: 'text', text: '[dsh-brake] …' }], source },
    }
    const out = (ctx as unknown as Seam).waterfall('session-telemetry/record', input, () => input)
    expect(out.severity).toBe('warn')
    expect(out.attributes).toMatchObject({ 'dsh_brake.action': 'notice', 'dsh_brake.kind': 'identical-calls', 'dsh_brake.tool': 'read' })
    const other = await bootDsh()
    await expect(mountProfile(other, [{ id: 'dsh-brake', config: { telemetryNoticeSeverity: 'WARN' } }]))
      .rejects.toThrow('dsh-brake: `telemetryNoticeSeverity` must be one of `info`, `warn`, `error`, got "WARN"')
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

/** The profile's patch file, as the watcher names it in the event. */
const PATCH_FILE = '/home/me/.dsh/profiles/web/cordis.patch.yml'

/**
 * Save `userPatch` as the profile's patch while dsh runs, as a long-lived dsh applies it: dsh-app-boot's
 * `watchUserPatches` recomposes the root include's patches from fresh reads (the bundle layer, then the user's) and
 * updates the entry in one transaction; when that throws, cordis-plugin-hmr's refresh logs it at warn level and emits
 * `hmr/config-update-failed` with the file and the error. Only that last step is played here, as HMR writes it.
 */
async function saveWhileRunning(ctx: Context, userPatch: PatchOptions[]): Promise<void> {
  const root = ctx.loader.resolve('include')
  const { patches: _previous, ...include } = root.options.config as { patches: PatchOptions[] }
  const bundle = yaml.load(readFileSync(join(PACKAGE_ROOT, 'cordis.patch.yml'), 'utf8'), { schema: entryListSchema }) as PatchOptions[]
  try {
    await root.update({ config: { ...include, patches: [...bundle, ...userPatch] } })
  } catch (error) {
    const parallel: (event: string, file: string, error: Error) => Promise<void> = ctx.parallel.bind(ctx)
    await parallel('hmr/config-update-failed', PATCH_FILE, error as Error)
  }
}

describe('a config edit saved while dsh runs', () => {
  const written = captureStderr()

  it('refused: the previous config runs on (fresh counts), and the person is told on dsh\'s terminal and in its log', async () => {
    const ctx = await profile([{ id: 'dsh-brake', config: { mode: 'deny', callWarnCount: 2, callDenyCount: 3 } }])
    const logged: string[] = []
    ctx.logger.exporter({ levels: { default: 3 }, export: message => void logged.push(`${message.type} ${message.name}: ${message.args.slice(1).join(' ')}`) })
    await saveWhileRunning(ctx, [{ id: 'dsh-brake', config: { mode: 'stopp', callWarnCount: 2, callDenyCount: 3 } }])
    const told = `dsh-brake: your edit of ${PATCH_FILE} was not applied; dsh-brake runs on with its previous config (its counts start afresh): `
      + '`mode` must be one of `remind`, `deny`, `stop`, got "stopp". Fix it and save again (`dsh-brake doctor` names the line).\n'
    expect(written()).toEqual([told])
    expect(logged.filter(line => line.startsWith('error dsh-brake:'))).toEqual([`error dsh-brake: ${told.trimEnd()}`])
    // Deny mode with its counts, as before the edit.
    const { agent: target } = agent(ctx, [...reads(4), say('done')])
    await prompt(ctx, target)
    expect(notices(target).map(n => n.summary)).toEqual(['read × 2, same result'])
    expect(results(target).map(r => r.isError)).toEqual([false, false, false, true])
  })

  it('refused for several reasons: each on a line of its own; a good edit after it applies and is not told', async () => {
    const ctx = await profile([{ id: 'dsh-brake', config: { mode: 'deny' } }])
    await saveWhileRunning(ctx, [{ id: 'dsh-brake', config: { callWarnCount: 1, callWarnCnt: 3 } }])
    expect(written()).toEqual([
      `dsh-brake: your edit of ${PATCH_FILE} was not applied; dsh-brake runs on with its previous config (its counts start afresh):\n`
      + '  - unknown config key `callWarnCnt`: did you mean `callWarnCount`? (valid keys: mode, callWarnCount, pollWarnCount, callDenyCount, '
      + 'callReWarnEvery, sequenceLength, sequenceCount, revisitCount, duplicateTextThreshold, duplicateTextWindowMs, duplicateTextCooldownMs, '
      + 'minimumDuplicateChars, include, exclude, progressAware, errorRepeatCount, inputErrorRepeatCount, sameFailureCount, toolPolicies, fileChangingCommands, '
      + 'streamCut, streamCutChars, streamCutCopies, telemetryNoticeSeverity)\n'
      + '  - `callWarnCount` must be an integer >= 2, got 1\n'
      + 'Fix it and save again (`dsh-brake doctor` names the line).\n',
    ])
    await saveWhileRunning(ctx, [{ id: 'dsh-brake', config: { callWarnCount: 2 } }])
    const { agent: target } = agent(ctx, [...reads(2), say('done')])
    await prompt(ctx, target)
    expect(notices(target).map(n => n.summary)).toEqual(['read × 2, same result'])
    expect(written()).toHaveLength(1)
  })
})
