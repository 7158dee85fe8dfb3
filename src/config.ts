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
import type { ToolClass } from './core/types.js'
import { checkConfig, type ConfigProblem, type ConfigSpec } from './config-check.js'

/**
 * How far the brake goes: only tell the model (`remind`), also refuse exact repeats (`deny`), or also end the turn of a
 * loop that goes on after it was told (`stop`).
 */
export type Mode = 'remind' | 'deny' | 'stop'

/** dsh-brake's configuration, as `apply` receives it (every key present: the schema fills the defaults). */
export interface Config {
  /**
   * `remind` (default): notices only. `deny`: also refuse an exact call repeated `callDenyCount` times. `stop`: what
   * deny does, and end the turn when a loop goes on without progress after its notice.
   */
  mode: Mode
  /** The identical call (first one included) whose result carries the first notice. Default 4. */
  callWarnCount: number
  /** The same for a poller (`job_output`, `list_agents`, …), whose unchanged status is waiting for a while. Default 6. */
  pollWarnCount: number
  /** Identical calls after which further identical attempts are refused in `deny` and `stop` modes. Default 10. */
  callDenyCount: number
  /** After the first notice, another notice every this many further repeats (calls, or laps of a sequence). Default 5. */
  callReWarnEvery: number
  /** The longest call cycle looked for (cycles of 2 up to this many calls). Default 4. */
  sequenceLength: number
  /** Back-to-back laps of a cycle that make a loop. Default 3. */
  sequenceCount: number
  /**
   * Consecutive calls that each repeat an earlier call with an unchanged result, since the last progress, that make a
   * loop of any period. Default 10.
   */
  revisitCount: number
  /** Occurrences of the same text block, within the window, that give a notice. Default 3. */
  duplicateTextThreshold: number
  /** The window text occurrences are counted in, in milliseconds. Default 120000. */
  duplicateTextWindowMs: number
  /** How long a repeated block stays quiet after its notice, in milliseconds. Default 30000. */
  duplicateTextCooldownMs: number
  /** Text blocks shorter than this many characters are ignored. Default 80. */
  minimumDuplicateChars: number
  /** Tool-name patterns (`*` wildcard) to track; empty tracks every tool. Default []. */
  include: string[]
  /** Tool-name patterns (`*` wildcard) that are transparent: they neither count nor break a sequence. Default []. */
  exclude: string[]
  /**
   * Count only repeats without progress (same result, no new successful change since the chain began): true
   * (default). False counts every repeat, as plain loop detectors do.
   */
  progressAware: boolean
  /** Failures of one tool with the same error, across different arguments, that give a notice. Default 3. */
  errorRepeatCount: number
  /** The same, for errors that reject the model's input (a model trying another fix each time is working). Default 5. */
  inputErrorRepeatCount: number
  /** Tool-name pattern → policy; consulted before the built-in defaults. Default {}. */
  toolPolicies: Record<string, ToolPolicy>
  /** More shell command patterns (`*` wildcard) that change files, beside the built-in ones. Default []. */
  fileChangingCommands: string[]
}

/** The defaults, in one place: the schema, the README table and the tests read them from here. */
export const DEFAULTS: Readonly<Config> = Object.freeze({
  mode: 'remind',
  callWarnCount: 4,
  pollWarnCount: 6,
  callDenyCount: 10,
  callReWarnEvery: 5,
  sequenceLength: 4,
  sequenceCount: 3,
  revisitCount: 10,
  duplicateTextThreshold: 3,
  duplicateTextWindowMs: 120_000,
  duplicateTextCooldownMs: 30_000,
  minimumDuplicateChars: 80,
  include: [],
  exclude: [],
  progressAware: true,
  errorRepeatCount: 3,
  inputErrorRepeatCount: 5,
  toolPolicies: {},
  fileChangingCommands: [],
})

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
  /** The longest cycle `sequenceLength` accepts. */
  maxSequenceLength: 32,
})

const ZH = {
  $desc: 'dsh-brake：检测 agent（智能体）的循环（相同调用、重复的调用序列、重复注入的文本），提醒模型，并可选择拒绝完全相同的重复调用。',
  mode: '`remind`（默认）只发提醒；`deny` 还会拒绝已重复 `callDenyCount` 次的完全相同调用；`stop` 在 `deny` 之外，当循环在提醒之后仍无进展地继续时结束本轮。',
  callWarnCount: '第几次相同调用（含第一次）的结果附带第一条提醒。默认 4。',
  pollWarnCount: '轮询类工具（`job_output`、`list_agents` 等）的相同调用在第几次时提醒：状态未变的轮询在一段时间内只是等待。默认 6。',
  callDenyCount: '`deny` 与 `stop` 模式下，相同调用达到此次数后，再次尝试将被拒绝。必须大于 `callWarnCount`。默认 10。',
  callReWarnEvery: '第一条提醒之后，每再重复这么多次（调用次数，或序列的圈数）再提醒一次。默认 5。',
  sequenceLength: '检测的最长调用循环（从 2 个调用到此数）。默认 4。',
  sequenceCount: '一个循环连续重复多少圈算作循环。默认 3。',
  revisitCount: '连续多少个调用都在重复之前做过的调用（结果未变，且自上次进展以来）时算作循环，不论周期长短。默认 10。',
  duplicateTextThreshold: '同一文本块在时间窗口内出现多少次时提醒。默认 3。',
  duplicateTextWindowMs: '统计文本出现次数的时间窗口（毫秒）。默认 120000。',
  duplicateTextCooldownMs: '重复文本块提醒后保持安静的时长（毫秒）。默认 30000。',
  minimumDuplicateChars: '短于此字符数的文本块不计。默认 80。',
  include: '要跟踪的工具名模式（支持 `*` 通配符）；为空时跟踪所有工具。',
  exclude: '透明的工具名模式（支持 `*`）：既不计数，也不打断序列。',
  progressAware: '为 true（默认）时只计“没有进展”的重复：结果相同，且自调用链开始以来没有新的成功修改。为 false 时每次重复都计数。',
  errorRepeatCount: '同一工具以相同错误失败（参数各不相同）多少次时提醒。默认 3。',
  inputErrorRepeatCount: '同上，但针对工具拒绝模型输入的错误（每次尝试不同修正的模型是在工作）。默认 5。',
  toolPolicies: '工具名模式 → 策略（`class`：default、read、poller、mutating、bookkeeping；可选 `identity` 参数字段、`byArgument` 与 `shellCommand`），先于内置默认值查找。',
  fileChangingCommands: '除内置列表外，另行视为会修改文件的 shell 命令模式（支持 `*` 通配符）。',
}

/** The classes a tool policy can name. */
export const TOOL_CLASSES: readonly ToolClass[] = ['default', 'read', 'poller', 'mutating', 'bookkeeping']

const CLASS = Schema.union(TOOL_CLASSES)

// Schemastery types unset optional fields as `T | undefined`, which `exactOptionalPropertyTypes` keeps apart from an
// absent key; the runtime value is the same shape as `ToolPolicy` (unset lists and maps come back empty).
const POLICIES = Schema.dict(Schema.object({
  class: CLASS.required(),
  identity: Schema.array(Schema.string()),
  byArgument: Schema.dict(Schema.dict(CLASS)),
  shellCommand: Schema.string(),
})) as unknown as Schema<Record<string, ToolPolicy>>

/**
 * The config schema. Input keys are optional (Cordis fills the defaults); the output type is the complete
 * {@link Config}, so `apply` needs no casts.
 */
export const Config: Schema<Partial<Config>, Config> = Schema.object({
  mode: Schema.union(['remind', 'deny', 'stop'] as const).default(DEFAULTS.mode)
    .description('`remind` (default) only tells the model; `deny` also refuses an exact call repeated `callDenyCount` times; `stop` also ends the turn when a loop goes on without progress after its notice.'),
  callWarnCount: Schema.number().default(DEFAULTS.callWarnCount)
    .description('The identical call (first one included) whose result carries the first notice.'),
  pollWarnCount: Schema.number().default(DEFAULTS.pollWarnCount)
    .description('The same for a poller, whose unchanged status is waiting for a while before it is a loop.'),
  callDenyCount: Schema.number().default(DEFAULTS.callDenyCount)
    .description('In `deny` and `stop` modes, identical attempts after this many identical calls are refused. Must be greater than `callWarnCount`.'),
  callReWarnEvery: Schema.number().default(DEFAULTS.callReWarnEvery)
    .description('After the first notice, another one every this many further repeats (calls, or laps of a sequence).'),
  sequenceLength: Schema.number().default(DEFAULTS.sequenceLength)
    .description('The longest call cycle looked for (cycles of 2 up to this many calls).'),
  sequenceCount: Schema.number().default(DEFAULTS.sequenceCount)
    .description('Back-to-back laps of a cycle that make a loop.'),
  revisitCount: Schema.number().default(DEFAULTS.revisitCount)
    .description('Consecutive calls that each repeat an earlier call with an unchanged result, since the last progress, that make a loop of any period.'),
  duplicateTextThreshold: Schema.number().default(DEFAULTS.duplicateTextThreshold)
    .description('Occurrences of the same text block within the window that give a notice.'),
  duplicateTextWindowMs: Schema.number().default(DEFAULTS.duplicateTextWindowMs)
    .description('The window text occurrences are counted in, in milliseconds.'),
  duplicateTextCooldownMs: Schema.number().default(DEFAULTS.duplicateTextCooldownMs)
    .description('How long a repeated block stays quiet after its notice, in milliseconds.'),
  minimumDuplicateChars: Schema.number().default(DEFAULTS.minimumDuplicateChars)
    .description('Text blocks shorter than this many characters are ignored.'),
  include: Schema.array(Schema.string()).default([])
    .description('Tool-name patterns (`*` wildcard) to track; empty tracks every tool.'),
  exclude: Schema.array(Schema.string()).default([])
    .description('Tool-name patterns (`*` wildcard) that are transparent: they neither count nor break a sequence.'),
  progressAware: Schema.boolean().default(DEFAULTS.progressAware)
    .description('Count only repeats without progress (same result, no new successful change since the chain began); false counts every repeat.'),
  errorRepeatCount: Schema.number().default(DEFAULTS.errorRepeatCount)
    .description('Failures of one tool with the same error, across different arguments, that give a notice.'),
  inputErrorRepeatCount: Schema.number().default(DEFAULTS.inputErrorRepeatCount)
    .description('The same, for errors that reject the model\'s input (a model trying another fix each time is working).'),
  toolPolicies: POLICIES.default({})
    .description('Tool-name pattern → policy (`class`: default, read, poller, mutating, bookkeeping; optional `identity` argument fields, `byArgument` and `shellCommand`), consulted before the built-in defaults.'),
  fileChangingCommands: Schema.array(Schema.string()).default([])
    .description('More shell command patterns (`*` wildcard) that change files, beside the built-in ones.'),
}).description('dsh-brake: detects agent loops (identical calls, repeated call sequences, repeated injected text), tells the model, and can refuse exact repeats.')
  .i18n({ 'zh-CN': ZH })

/** What `apply` works with: the validated config plus the detector options derived from it. */
export interface ResolvedConfig {
  readonly config: Readonly<Config>
  readonly detectors: BrakeOptions
}

/** The config's shape as the checker reads it: keys and defaults, the modes and classes the schema lists, ranges. */
const SPEC: ConfigSpec = {
  defaults: DEFAULTS,
  modes: (Config as unknown as { dict: { mode: { list: { value: string }[] } } }).dict.mode.list.map(choice => choice.value),
  classes: TOOL_CLASSES,
  ranges: {
    callWarnCount: { min: 2 },
    pollWarnCount: { min: 2 },
    callReWarnEvery: { min: 1 },
    callDenyCount: { min: 1 },
    sequenceLength: { min: 2, max: LIMITS.maxSequenceLength },
    sequenceCount: { min: 2 },
    revisitCount: { min: 3 },
    duplicateTextThreshold: { min: 2 },
    duplicateTextWindowMs: { min: 1 },
    duplicateTextCooldownMs: { min: 0 },
    minimumDuplicateChars: { min: 1 },
    errorRepeatCount: { min: 2 },
    inputErrorRepeatCount: { min: 2 },
  },
  lists: { include: 'tool-name pattern', exclude: 'tool-name pattern', fileChangingCommands: 'command pattern' },
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
