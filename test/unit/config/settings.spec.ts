import Schema from '@deepseek-ai/schemastery'
import { describe, expect, it } from 'vitest'
import { DEFAULTS, type Config } from '../../../src/config/keys.ts'
import { keysSchema } from '../../../src/config/schema.ts'
import { settingsSchema } from '../../../src/config/settings-schema.ts'
import { SETTINGS_KEYS, settingsOf, settingsProblems, withSettings } from '../../../src/config/settings.ts'

const row: Config = { ...DEFAULTS, callWarnCount: 3, exclude: ['todo_write'], sequenceLength: 6 }

describe('the settings section', () => {
  it('is the row\'s values of its keys, and lays its own over the row', () => {
    expect(settingsOf(row)).toEqual({ mode: 'remind', callWarnCount: 3, callDenyCount: 10, streamCut: true, include: [], exclude: ['todo_write'] })
    const running = withSettings(row, { mode: 'deny', exclude: [] })
    expect(running).toEqual({ ...row, mode: 'deny', exclude: [] })
    // Keys outside the section stay the row's.
    expect(withSettings(row, { sequenceLength: 2 } as never).sequenceLength).toBe(6)
  })

  it('words every problem as the brake does, judged with the row\'s other keys', () => {
    expect(settingsProblems({ callDenyCount: 3 }, row).map(p => p.message)).toEqual(['`callDenyCount` must be greater than `callWarnCount` (3), got 3'])
    expect(settingsProblems({ callWarnCount: '4', streamCut: 'yes' }, row).map(p => p.message)).toEqual([
      '`callWarnCount` must be a number, got the string "4": write it without quotes',
      '`streamCut` must be true or false, got "yes"',
    ])
    expect(settingsProblems({ sequenceLength: 3 }, row)[0]!.message).toBe(
      `\`sequenceLength\` is not one of the settings (${SETTINGS_KEYS.join(', ')}); other keys go in the row of cordis.patch.yml`)
    expect(settingsProblems(undefined, row)).toEqual([])
    expect(settingsProblems({ mode: 'stop', callWarnCount: 5 }, row)).toEqual([])
  })
})

describe('the settings schema', () => {
  it('serializes as the plain schema of the section\'s keys', () => {
    const worded = settingsSchema(row)
    const plain = keysSchema(SETTINGS_KEYS)
    // Numbered references differ between two builds of one schema; the shapes must not.
    const strip = (json: unknown): string => JSON.stringify(json).replace(/\d+/g, '#')
    expect(strip(worded.toJSON())).toBe(strip(plain.toJSON()))
    // What a web client does with it: rebuilt from JSON, it still describes each key.
    const rebuilt = new Schema(JSON.parse(JSON.stringify(worded.toJSON())) as never) as Schema
    expect(rebuilt({})).toEqual(settingsOf(DEFAULTS as Config))
  })

  it('fills the defaults, and refuses in the brake\'s words', () => {
    const worded = settingsSchema(row)
    expect(worded({ mode: 'deny' })).toEqual({ ...settingsOf(DEFAULTS as Config), mode: 'deny' })
    expect(() => worded({ callWarnCount: 1 })).toThrow('dsh-brake: `callWarnCount` must be an integer >= 2, got 1')
    expect(() => worded({ callWarnCount: 12, callDenyCount: 10 })).toThrow('dsh-brake: `callDenyCount` must be greater than `callWarnCount` (12), got 10')
  })
})
