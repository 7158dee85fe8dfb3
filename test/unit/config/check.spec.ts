import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { configProblems } from '../../../src/config/check.ts'
import { DEFAULTS } from '../../../src/config/keys.ts'
import { resolveOptions } from '../../../src/config/resolve.ts'
import { Config } from '../../../src/config/schema.ts'
import * as Brake from '../../../src/index.ts'

/** Mount the plugin on a bare Cordis context, as the Loader does after resolving a row. */
async function mount(config: unknown): Promise<void> {
  const ctx = new Context()
  await ctx.plugin(Brake, config as Partial<Config>)
}

describe('config validation fails loud', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['unknown key', { threshold: 6 }, 'dsh-brake: unknown config key `threshold` (valid keys: mode, callWarnCount,'],
    ['unknown key one slip from a real one', { callWarnCnt: 6 }, 'dsh-brake: unknown config key `callWarnCnt`: did you mean `callWarnCount`? (valid keys: mode, callWarnCount,'],
    ['a key in the wrong case', { callwarncount: 6 }, 'dsh-brake: unknown config key `callwarncount`: did you mean `callWarnCount`?'],
    ['unknown policy key one slip from a real one', { toolPolicies: { deploy: { class: 'poller', identiy: ['id'] } } }, 'dsh-brake: unknown policy key `toolPolicies.deploy.identiy`: did you mean `identity`? (valid keys: class, identity, byArgument, shellCommand)'],
    ['callWarnCount below 2', { callWarnCount: 1 }, 'dsh-brake: `callWarnCount` must be an integer >= 2, got 1'],
    ['callWarnCount not an integer', { callWarnCount: 2.5 }, 'dsh-brake: `callWarnCount` must be an integer >= 2, got 2.5'],
    ['callWarnCount NaN', { callWarnCount: Number.NaN }, 'dsh-brake: `callWarnCount` must be an integer >= 2, got NaN'],
    ['callReWarnEvery 0', { callReWarnEvery: 0 }, 'dsh-brake: `callReWarnEvery` must be an integer >= 1, got 0'],
    ['callDenyCount not an integer', { callDenyCount: 10.5 }, 'dsh-brake: `callDenyCount` must be an integer >= 1, got 10.5'],
    ['callDenyCount equal to callWarnCount', { callWarnCount: 6, callDenyCount: 6 }, 'dsh-brake: `callDenyCount` must be greater than `callWarnCount` (6), got 6'],
    ['callDenyCount below callWarnCount', { callDenyCount: 3 }, 'dsh-brake: `callDenyCount` must be greater than `callWarnCount` (4), got 3'],
    ['pollWarnCount 1', { pollWarnCount: 1 }, 'dsh-brake: `pollWarnCount` must be an integer >= 2, got 1'],
    ['revisitCount 2', { revisitCount: 2 }, 'dsh-brake: `revisitCount` must be an integer >= 3, got 2'],
    ['inputErrorRepeatCount 1', { inputErrorRepeatCount: 1 }, 'dsh-brake: `inputErrorRepeatCount` must be an integer >= 2, got 1'],
    ['an empty file-changing command', { fileChangingCommands: ['make install*', ' '] }, 'dsh-brake: `fileChangingCommands[1]` must be a non-empty command pattern, got " "'],
    ['an empty shell-command field', { toolPolicies: { my_shell: { class: 'default', shellCommand: '' } } }, 'dsh-brake: `toolPolicies.my_shell.shellCommand` must be a non-empty argument name, got ""'],
    ['sequenceLength 1', { sequenceLength: 1 }, 'dsh-brake: `sequenceLength` must be an integer from 2 to 32, got 1'],
    ['sequenceLength too long', { sequenceLength: 33 }, 'dsh-brake: `sequenceLength` must be an integer from 2 to 32, got 33'],
    ['sequenceCount 1', { sequenceCount: 1 }, 'dsh-brake: `sequenceCount` must be an integer >= 2, got 1'],
    ['duplicateTextThreshold 1', { duplicateTextThreshold: 1 }, 'dsh-brake: `duplicateTextThreshold` must be an integer >= 2, got 1'],
    ['duplicateTextWindowMs 0', { duplicateTextWindowMs: 0 }, 'dsh-brake: `duplicateTextWindowMs` must be an integer >= 1, got 0'],
    ['duplicateTextCooldownMs negative', { duplicateTextCooldownMs: -1 }, 'dsh-brake: `duplicateTextCooldownMs` must be an integer >= 0, got -1'],
    ['minimumDuplicateChars 0', { minimumDuplicateChars: 0 }, 'dsh-brake: `minimumDuplicateChars` must be an integer >= 1, got 0'],
    ['empty include pattern', { include: ['read', ' '] }, 'dsh-brake: `include[1]` must be a non-empty tool-name pattern, got " "'],
    ['empty exclude pattern', { exclude: [''] }, 'dsh-brake: `exclude[0]` must be a non-empty tool-name pattern, got ""'],
    ['errorRepeatCount 1', { errorRepeatCount: 1 }, 'dsh-brake: `errorRepeatCount` must be an integer >= 2, got 1'],
    ['empty policy pattern', { toolPolicies: { ' ': { class: 'read' } } }, 'dsh-brake: `toolPolicies` keys must be non-empty tool-name patterns, got " "'],
    ['empty identity field', { toolPolicies: { bash: { class: 'default', identity: ['command', ''] } } }, 'dsh-brake: `toolPolicies.bash.identity[1]` must be a non-empty argument name, got ""'],
  ])('%s', async (_, input, message) => {
    expect(() => resolveOptions({ ...DEFAULTS, ...input })).toThrow(message)
    // The same message stops the plugin from loading.
    await expect(mount(input)).rejects.toThrow(message)
  })

  it.each<[string, Record<string, unknown>, string, string]>([
    ['mode not a mode', { mode: 'block' }, '$.mode expected "remind" | "deny" | "stop" but got "block"', 'dsh-brake: `mode` must be one of `remind`, `deny`, `stop`, got "block"'],
    ['a notice severity the telemetry seam does not take', { telemetryNoticeSeverity: 'debug' }, '$.telemetryNoticeSeverity expected "info" | "warn" | "error" but got "debug"', 'dsh-brake: `telemetryNoticeSeverity` must be one of `info`, `warn`, `error`, got "debug"'],
    ['a count that is not a number', { callWarnCount: 'six' }, '$.callWarnCount expected number but got six', 'dsh-brake: `callWarnCount` must be an integer >= 2, got "six"'],
    ['a quoted number', { callWarnCount: '3' }, '$.callWarnCount expected number but got 3', 'dsh-brake: `callWarnCount` must be a number, got the string "3": write it without quotes'],
    ['include not a list', { include: 'read' }, '$.include expected array but got read', 'dsh-brake: `include` must be a list of tool-name patterns, got "read"'],
    ['include item not a string', { exclude: [1] }, '$.exclude[0] expected string but got 1', 'dsh-brake: `exclude[0]` must be a tool-name pattern (text), got 1'],
    ['progressAware not a boolean', { progressAware: 'yes' }, '$.progressAware expected boolean but got yes', 'dsh-brake: `progressAware` must be true or false, got "yes"'],
    ['progressAware quoted', { progressAware: 'false' }, '$.progressAware expected boolean but got false', 'dsh-brake: `progressAware` must be true or false, got the string "false": write it without quotes'],
    ['a policy class that does not exist', { toolPolicies: { bash: { class: 'shell' } } }, '$.toolPolicies.bash.class expected "default" | "read" | "poller" | "mutating" | "bookkeeping" but got "shell"', 'dsh-brake: `toolPolicies.bash.class` must be one of `default`, `read`, `poller`, `mutating`, `bookkeeping`, got "shell"'],
    ['a policy without a class', { toolPolicies: { bash: { identity: ['command'] } } }, '$.toolPolicies.bash.class missing required value', 'dsh-brake: `toolPolicies.bash.class` is required: one of `default`, `read`'],
  ])('a wrong type names key, rule and value, where the bare schema would not: %s', async (_, input, schemaMessage, message) => {
    // The bare schema still words it its own way; the plugin's load goes through the full check first.
    expect(() => Config(input)).toThrow(schemaMessage)
    await expect(mount(input)).rejects.toThrow(message)
  })
})

describe('every problem at once', () => {
  it('names each problem of a config in one message at load', async () => {
    const input = { callWarnCount: '3', sequenceLength: 40, callWarnCnt: 6, include: [''] }
    const error = await mount(input).then(() => undefined, (thrown: unknown) => thrown as Error)
    expect(error?.message).toContain('dsh-brake: unknown config key `callWarnCnt`')
    expect(error?.message).toContain('dsh-brake: `callWarnCount` must be a number, got the string "3": write it without quotes')
    expect(error?.message).toContain('dsh-brake: `sequenceLength` must be an integer from 2 to 32, got 40')
    expect(error?.message).toContain('dsh-brake: `include[0]` must be a non-empty tool-name pattern, got ""')
  })

  it('says how many there are when resolving directly, one per line', () => {
    expect(() => resolveOptions({ ...DEFAULTS, callWarnCount: 1, revisitCount: 2 })).toThrow(
      'dsh-brake: 2 problems in the config:\n  - `callWarnCount` must be an integer >= 2, got 1\n  - `revisitCount` must be an integer >= 3, got 2',
    )
  })

  it('gives each problem the path of its key, for a file line', () => {
    expect(configProblems({ toolPolicies: { bash: { class: 'read', identity: ['command', ''], colour: 'red' } }, callDenyCount: 2 }).map(problem => problem.path))
      .toEqual([['toolPolicies', 'bash', 'colour'], ['toolPolicies', 'bash', 'identity', 1], ['callDenyCount']])
  })

  it('finds nothing wrong in an empty or absent config', () => {
    expect(configProblems(null)).toEqual([])
    expect(configProblems(undefined)).toEqual([])
    expect(configProblems({})).toEqual([])
    expect(configProblems(['a list'])).toEqual([{ path: [], message: 'the config must be a mapping of keys to values, got a list (["a list"])' }])
  })

  it('derives the detector options from the config', () => {
    const { detectors } = resolveOptions(Config({ callWarnCount: 3, callReWarnEvery: 2, sequenceLength: 5, sequenceCount: 4 }))
    expect(detectors['identical-calls']).toMatchObject({ schedule: { first: 3, every: 2 } })
    expect(detectors.cycle).toEqual({ maxLength: 5, schedule: { first: 4, every: 2 }, progressAware: true })
    expect(detectors['same-error']).toMatchObject({ schedule: { first: 3, every: 2 } })
    expect(detectors['duplicate-text']).toMatchObject({ threshold: 3, windowMs: 120_000, cooldownMs: 30_000, minChars: 80 })
  })
})
