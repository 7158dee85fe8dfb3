import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { configProblems } from '../../../src/config/check.ts'
import { DEFAULTS, KEY_ENTRIES, KEYS } from '../../../src/config/keys.ts'
import { Config } from '../../../src/config/schema.ts'
import * as Brake from '../../../src/index.ts'

/** Mount the plugin on a bare Cordis context, as the Loader does after resolving a row. */
async function mount(config: unknown): Promise<void> {
  const ctx = new Context()
  await ctx.plugin(Brake, config as Partial<Config>)
}

/** The schema's own node for each key, where its default and descriptions are kept. */
const fields = (Config as unknown as { dict: Record<string, { meta: { default: unknown; description: Record<string, string> } }> }).dict

describe('config defaults', () => {
  it.each([undefined, null, {}])('fills every default from %j', (input) => {
    expect(Config(input as never)).toEqual(DEFAULTS)
  })

  it('keeps what the user set and defaults the rest (a partial patch loses nothing)', () => {
    expect(Config({ callWarnCount: 4, exclude: ['todo_*'] })).toEqual({ ...DEFAULTS, callWarnCount: 4, exclude: ['todo_*'] })
  })

  it('loads with the defaults', async () => {
    await expect(mount({})).resolves.toBeUndefined()
  })

  it.each(KEY_ENTRIES)('gives %s the table\'s default and descriptions', (key, entry) => {
    const schema = fields[key]
    expect(schema?.meta.default).toEqual(entry.default)
    expect(Config({})[key]).toEqual(entry.default)
    expect(schema?.meta.description['']).toBe(entry.en)
    expect(schema?.meta.description['zh-CN']).toBe(entry.rule.kind === 'integer' ? `${entry.zh}默认 ${String(entry.default)}。` : entry.zh)
  })

  it('describes every key in English and Chinese', () => {
    expect(Object.keys(fields).sort()).toEqual(Object.keys(DEFAULTS).sort())
    for (const [key, schema] of Object.entries(fields)) {
      const description = schema.meta.description
      expect(description[''], key).toMatch(/\w/)
      expect(description['zh-CN'], key).toMatch(/[\u4e00-\u9fff]/)
    }
  })
})

describe('the schema on its own', () => {
  const accepts = (input: Record<string, unknown>): boolean => {
    try {
      Config(input)
      return true
    } catch {
      return false
    }
  }
  const integers = KEY_ENTRIES.flatMap(([key, { rule }]) => rule.kind === 'integer' ? [{ key, ...rule }] : [])

  it.each(integers)('holds $key to an integer from its least value', ({ key, min }) => {
    expect(Config({ [key]: min })[key]).toBe(min)
    expect(() => Config({ [key]: min - 1 })).toThrow(`$.${key} expected number >= ${min} but got ${min - 1}`)
    expect(() => Config({ [key]: min + 0.5 })).toThrow(`$.${key} expected number multiple of 1 but got ${min + 0.5}`)
    expect(() => Config({ [key]: Number.NaN })).toThrow(`$.${key} expected number multiple of 1 but got NaN`)
  })

  it('holds sequenceLength to its greatest value', () => {
    expect(Config({ sequenceLength: KEYS.sequenceLength.rule.max }).sequenceLength).toBe(32)
    expect(() => Config({ sequenceLength: 33 })).toThrow('$.sequenceLength expected number <= 32 but got 33')
  })

  it.each<[string, Record<string, unknown>, string]>([
    ['an empty tool-name pattern', { include: ['read', ' '] }, '$.include[1] expect string to match regexp /\\S/'],
    ['an empty command pattern', { fileChangingCommands: [''] }, '$.fileChangingCommands[0] expect string to match regexp /\\S/'],
    ['an empty policy pattern', { toolPolicies: { ' ': { class: 'read' } } }, '$.toolPolicies expect string to match regexp /\\S/'],
    ['an empty identity field', { toolPolicies: { bash: { class: 'default', identity: [''] } } }, '$.toolPolicies.bash.identity[0] expect string to match regexp /\\S/'],
    ['an empty shell-command field', { toolPolicies: { bash: { class: 'default', shellCommand: '' } } }, '$.toolPolicies.bash.shellCommand expected string length >= 1 but got 0'],
  ])('refuses %s', (_, input, message) => {
    expect(() => Config(input)).toThrow(message)
  })

  it('accepts each integer exactly when the checker finds nothing wrong with it', () => {
    for (const { key, min, max } of integers) {
      for (const value of [min - 1, min, min + 0.5, min + 1, (max ?? 1000) + 1, Number.POSITIVE_INFINITY]) {
        const own = configProblems({ [key]: value }).filter(problem => problem.message.startsWith(`\`${key}\` must be an integer`))
        expect(accepts({ [key]: value }), `${key}: ${value}`).toBe(own.length === 0)
      }
    }
  })

  it('leaves the rule between keys to the checker', () => {
    expect(Config({ callWarnCount: 6, callDenyCount: 6 })).toMatchObject({ callWarnCount: 6, callDenyCount: 6 })
  })
})

