/**
 * Configuration: the schema Cordis validates at load, and the checks a schema cannot express.
 *
 * The schema declares types and defaults (so a partial user config, or none, is completed by Cordis). Every rule
 * (types, integer ranges, `callDenyCount` above `callWarnCount`, unknown keys, empty patterns) is checked on the raw
 * config by config-check.ts before the schema runs, and all the problems found stop the plugin from loading in one
 * message, each naming the key, the rule and the value received.
 * @module dsh-brake/config
 */
import Schema from '@deepseek-ai/schemastery'
import type { BrakeOptions } from './core/brake-state.js'
import type { ToolPolicy } from './core/policies.js'
import { checkConfig, type ConfigProblem, type ConfigSpec } from './config-check.js'
import { DEFAULTS, KEY_ENTRIES, KEYS, TOOL_CLASSES, type Config as Values, type KeyEntry, type Rule } from './config/keys.js'

export { DEFAULTS, TOOL_CLASSES }
export type { Mode } from './config/keys.js'

/** Bounds that are not configuration: they keep per-agent memory flat however long a session runs. */
export const LIMITS = Object.freeze({
  /** Distinct call identities remembered per agent. */
  trackedCalls: 1024,
  /** Distinct text blocks remembered per agent. */
  trackedBlocks: 1024,
  /** Tools whose failure chains are remembered per agent. */
  trackedTools: 256,
  /** Claimed message ids remembered per agent, to ignore replays. */
  messageIds: 1024,
  /** Characters of a block's beginning kept for a notice's preview. */
  blockHeadChars: 200,
})

const CLASS = Schema.union(TOOL_CLASSES)

// Schemastery types unset optional fields as `T | undefined`, which `exactOptionalPropertyTypes` keeps apart from an
// absent key; the runtime value is the same shape as `ToolPolicy` (unset lists and maps come back empty).
const POLICIES = Schema.dict(Schema.object({
  class: CLASS.required(),
  identity: Schema.array(Schema.string()),
  byArgument: Schema.dict(Schema.dict(CLASS)),
  shellCommand: Schema.string(),
})) as unknown as Schema<Record<string, ToolPolicy>>

function schemaOf(rule: Rule): Schema {
  switch (rule.kind) {
    case 'choice': return Schema.union(rule.values)
    case 'integer': return Schema.number()
    case 'boolean': return Schema.boolean()
    case 'patterns': return Schema.array(Schema.string())
    case 'policies': return POLICIES
  }
}

// A number's Chinese description ends with its default ("默认 4。"), written from the table so the two cannot differ.
const zh = (entry: KeyEntry): string => entry.rule.kind === 'integer' ? `${entry.zh}默认 ${String(entry.default)}。` : entry.zh

/** dsh-brake's configuration, as `apply` receives it (every key present: the schema fills the defaults). */
export type Config = Values

/**
 * The config schema. Input keys are optional (Cordis fills the defaults); the output type is the complete
 * {@link Config}, so `apply` needs no casts.
 */
export const Config = Schema.object(Object.fromEntries(KEY_ENTRIES.map(([key, entry]) =>
  [key, schemaOf(entry.rule).default(entry.default).description(entry.en)])))
  .description('dsh-brake: detects agent loops (identical calls, repeated call sequences, repeated injected text), tells the model, and can refuse exact repeats.')
  .i18n({
    'zh-CN': {
      $desc: 'dsh-brake：检测 agent（智能体）的循环（相同调用、重复的调用序列、重复注入的文本），提醒模型，并可选择拒绝完全相同的重复调用。',
      ...Object.fromEntries(KEY_ENTRIES.map(([key, entry]) => [key, zh(entry)])),
    },
  }) as unknown as Schema<Partial<Config>, Config>

/** What `apply` works with: the validated config plus the detector options derived from it. */
export interface ResolvedConfig {
  readonly config: Readonly<Config>
  readonly detectors: BrakeOptions
}

/** The config's shape as the checker reads it, from the table of keys. */
const SPEC: ConfigSpec = {
  defaults: DEFAULTS,
  modes: KEYS.mode.rule.values,
  classes: TOOL_CLASSES,
  ranges: Object.fromEntries(KEY_ENTRIES.flatMap(([key, { rule }]) => rule.kind === 'integer'
    ? [[key, rule.max === undefined ? { min: rule.min } : { min: rule.min, max: rule.max }]]
    : [])),
  lists: Object.fromEntries(KEY_ENTRIES.flatMap(([key, { rule }]) => rule.kind === 'patterns' ? [[key, rule.item]] : [])),
}

/** Every problem in a config as the user wrote it (a row's `config`), each with its key path. */
export function configProblems(raw: unknown): ConfigProblem[] {
  return checkConfig(raw, SPEC)
}

/** One message for all of a config's problems, in the plugin's error style. */
export function describeProblems(problems: readonly ConfigProblem[]): string {
  return `dsh-brake: ${listProblems(problems)}`
}

/**
 * A config's problems in words, for a message that says first whose they are: the one problem, or how many with
 * each on a line of its own.
 */
export function listProblems(problems: readonly ConfigProblem[]): string {
  if (problems.length === 1) return problems[0]?.message ?? ''
  return `${problems.length} problems in the config:\n${problems.map(problem => `  - ${problem.message}`).join('\n')}`
}

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

/**
 * Check every rule the schema cannot express and derive the detector options. Throws (and so stops the plugin from
 * loading) with one message naming every problem: the key, the rule and the value received.
 */
export function resolveOptions(config: Config): ResolvedConfig {
  const problems = configProblems(config)
  if (problems.length > 0) throw new TypeError(describeProblems(problems))
  return {
    config,
    detectors: {
      trackedCalls: LIMITS.trackedCalls,
      // Deny and stop modes: a repeat's notice also warns of the refusal to come, and each loop's notices count.
      oneVoice: config.mode === 'remind',
      calls: {
        schedule: { first: config.callWarnCount, every: config.callReWarnEvery },
        pollSchedule: { first: config.pollWarnCount, every: config.callReWarnEvery },
        progressAware: config.progressAware,
      },
      sequences: {
        maxLength: config.sequenceLength,
        schedule: { first: config.sequenceCount, every: config.callReWarnEvery },
        progressAware: config.progressAware,
      },
      revisits: {
        schedule: { first: config.revisitCount, every: config.callReWarnEvery },
        ownedPeriod: config.sequenceLength,
      },
      errors: {
        schedule: { first: config.errorRepeatCount, every: config.callReWarnEvery },
        inputSchedule: { first: config.inputErrorRepeatCount, every: config.callReWarnEvery },
        maxTracked: LIMITS.trackedTools,
      },
      text: {
        threshold: config.duplicateTextThreshold,
        windowMs: config.duplicateTextWindowMs,
        cooldownMs: config.duplicateTextCooldownMs,
        minChars: config.minimumDuplicateChars,
        maxTracked: LIMITS.trackedBlocks,
        maxMessageIds: LIMITS.messageIds,
        headChars: LIMITS.blockHeadChars,
      },
    },
  }
}
