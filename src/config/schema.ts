/**
 * The config schema Cordis validates at load: defaults for a partial config, each key's descriptions, and each key's
 * rule as far as a schema can state it, all made from the table of keys. The load goes through the checker first, which
 * words every problem for a person.
 * Design: docs/design.md#config
 * @module dsh-brake/config/schema
 */
import Schema from '@deepseek-ai/schemastery'
import type { ToolPolicy } from '../core/identity/policies.js'
import { configProblems } from './check.js'
import { KEY_ENTRIES, TOOL_CLASSES, type Config as Values, type ConfigKey, type KeyEntry, type Rule } from './keys.js'

/** dsh-brake's configuration, as `apply` receives it (every key present: the schema fills the defaults). */
export type Config = Values

const CLASS = Schema.union(TOOL_CLASSES)

/** Text with more than white space in it: what the checker calls non-empty. */
const NON_EMPTY = Schema.string().pattern(/\S/)

// Schemastery types unset optional fields as `T | undefined`, which `exactOptionalPropertyTypes` keeps apart from an
// absent key; the runtime value is the same shape as `ToolPolicy` (unset lists and maps come back empty).
const POLICIES = Schema.dict(Schema.object({
  class: CLASS.required(),
  identity: Schema.array(NON_EMPTY),
  byArgument: Schema.dict(Schema.dict(CLASS)),
  shellCommand: Schema.string().min(1),
}), NON_EMPTY) as unknown as Schema<Record<string, ToolPolicy>>

function schemaOf(rule: Rule): Schema {
  switch (rule.kind) {
    case 'choice': return Schema.union(rule.values)
    case 'integer': {
      // A step of 1 from `min`: an integer (NaN and Infinity are refused too).
      const integer = Schema.number().step(1).min(rule.min)
      return rule.max === undefined ? integer : integer.max(rule.max)
    }
    case 'boolean': return Schema.boolean()
    case 'patterns': return Schema.array(NON_EMPTY)
    case 'policies': return POLICIES
  }
}

// A number's Chinese description ends with its default ("默认 4。"), written from the table so the two cannot differ.
const chinese = (entry: KeyEntry): string => entry.rule.kind === 'integer' ? `${entry.zh}默认 ${String(entry.default)}。` : entry.zh

/**
 * A schema of some of the table's keys (all of them for the config; the settings section's for DSH's settings
 * service), each with its default, its rule and its descriptions in both languages.
 */
export function keysSchema(keys: readonly ConfigKey[]): Schema {
  const entries = KEY_ENTRIES.filter(([key]) => keys.includes(key))
  return Schema.object(Object.fromEntries(entries.map(([key, entry]) =>
    [key, schemaOf(entry.rule).default(entry.default).description(entry.en)])))
    .description('A DeepSeek Harness (DSH) plugin that notices an agent going round in a loop and tells the model what it saw and what to do instead, and cuts a response that falls into repeating itself while it streams; it can also refuse exact repeats or end the loop\'s turn.')
    .i18n({
      'zh-CN': {
        $desc: 'DeepSeek Harness（DSH）的插件：察觉 agent 原地打转，并告诉模型看到了什么、该改做什么；还可以拒绝完全相同的重复，或结束循环所在的一轮。',
        ...Object.fromEntries(entries.map(([key, entry]) => [key, chinese(entry)])),
      },
    })
}

/**
 * The config schema. Input keys are optional (Cordis fills the defaults); the output type is the complete
 * {@link Config}, so `apply` needs no casts.
 */
// Built from the table, the schema's static type knows no keys; the cast gives it the one the table makes.
export const Config = keysSchema(KEY_ENTRIES.map(([key]) => key)) as unknown as Schema<Partial<Config>, Config>

// Cordis validates a plugin's config through its Standard Schema face before `apply`. The schema alone stops at the
// first problem and words a quoted number as "expected number but got 3"; this face checks the raw config against
// every rule first and reports each problem as one issue (Cordis lists them all in one error), and only then lets
// the schema fill the defaults.
Object.defineProperty(Config, '~standard', {
  value: {
    version: 1,
    vendor: 'dsh-brake',
    validate(raw: unknown) {
      const problems = configProblems(raw)
      if (problems.length > 0) return { issues: problems.map(problem => ({ message: `dsh-brake: ${problem.message}` })) }
      try {
        return { value: Config(raw as Partial<Config>) }
      } catch (error) {
        return { issues: [{ message: `dsh-brake: ${error instanceof Error ? error.message : String(error)}` }] }
      }
    },
  },
})
