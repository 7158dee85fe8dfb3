/**
 * The config keys, each written once (default, rule, English and Chinese description), so that they cannot drift
 * apart: the defaults, the type, the schema and the checker's rules are made from this table.
 * Design: docs/design.md#config
 * @module dsh-brake/config/keys
 */
import type { ToolPolicy } from '../core/identity/policies.js'
import type { ToolClass } from '../core/types.js'

/** The classes a tool policy can name. */
export const TOOL_CLASSES: readonly ToolClass[] = ['default', 'read', 'poller', 'mutating', 'bookkeeping']

/** What a key accepts. */
export type Rule =
  /** One of `values`. */
  | { readonly kind: 'choice'; readonly values: readonly string[] }
  /** An integer from `min` (to `max`); with `above`, also greater than that key's value. */
  | { readonly kind: 'integer'; readonly min: number; readonly max?: number; readonly above?: string }
  | { readonly kind: 'boolean' }
  /** A list of patterns (`*` wildcard), none empty; `item` names one in words ("tool-name pattern"). */
  | { readonly kind: 'patterns'; readonly item: string }
  /** Tool-name pattern → {@link ToolPolicy}. */
  | { readonly kind: 'policies' }

/** One key: what it is set to when the user leaves it out, what it accepts, and what it does. */
export interface KeyEntry {
  readonly default: unknown
  readonly rule: Rule
  /** The schema's description. */
  readonly en: string
  /** The same in Chinese (zh-CN). */
  readonly zh: string
}

/** Every key, in the order the user is told of them (the schema, the list of valid keys, the README). */
export const KEYS = {
  mode: {
    default: 'remind',
    rule: { kind: 'choice', values: ['remind', 'deny', 'stop'] },
    en: 'Tell the model (`remind`), also refuse exact repeats (`deny`), also end a loop\'s turn (`stop`).',
    zh: '只提醒模型（`remind`），另外拒绝完全相同的重复（`deny`），另外结束循环所在的一轮（`stop`）。',
  },
  callWarnCount: {
    default: 4,
    rule: { kind: 'integer', min: 2 },
    en: 'The identical call (first one included) that carries the first notice.',
    zh: '第几次相同调用（含第一次）附带第一条提醒。',
  },
  pollWarnCount: {
    default: 6,
    rule: { kind: 'integer', min: 2 },
    en: 'The same, for a poller\'s unchanged status.',
    zh: '同上，针对轮询类工具未变的状态。',
  },
  callDenyCount: {
    default: 10,
    rule: { kind: 'integer', min: 1, above: 'callWarnCount' },
    en: 'Identical attempts after this many are refused (`deny`, `stop`).',
    zh: '相同调用满此次数后，再次尝试即被拒绝（`deny`、`stop`）。',
  },
  callReWarnEvery: {
    default: 5,
    rule: { kind: 'integer', min: 1 },
    en: 'Further repeats (calls, or laps) before a loop is told again.',
    zh: '同一循环再次提醒前的重复次数（调用或圈数）。',
  },
  sequenceLength: {
    default: 4,
    // The cycle detector keeps, per agent, a few numbers for every cycle length up to this bound.
    rule: { kind: 'integer', min: 2, max: 32 },
    en: 'The longest call cycle looked for.',
    zh: '检测的最长调用环。',
  },
  sequenceCount: {
    default: 3,
    rule: { kind: 'integer', min: 2 },
    en: 'Back-to-back laps of a cycle that make a loop.',
    zh: '环连续转多少圈算作循环。',
  },
  revisitCount: {
    default: 10,
    rule: { kind: 'integer', min: 3 },
    en: 'Calls in a row each repeating an earlier one unchanged: a loop of any period.',
    zh: '连续多少个调用都原样重复之前的调用时算作循环，不论周期。',
  },
  duplicateTextThreshold: {
    default: 3,
    rule: { kind: 'integer', min: 2 },
    en: 'Copies of a text block within the window that make a notice.',
    zh: '同一文本块在时间窗口内出现多少份时提醒。',
  },
  duplicateTextWindowMs: {
    default: 120_000,
    rule: { kind: 'integer', min: 1 },
    en: 'That window, in milliseconds.',
    zh: '该时间窗口（毫秒）。',
  },
  duplicateTextCooldownMs: {
    default: 30_000,
    rule: { kind: 'integer', min: 0 },
    en: 'How long a block stays quiet after its notice, in milliseconds.',
    zh: '重复文本块提醒后保持安静的时长（毫秒）。',
  },
  minimumDuplicateChars: {
    default: 80,
    rule: { kind: 'integer', min: 1 },
    en: 'Text blocks shorter than this are ignored.',
    zh: '短于此长度的文本块不计。',
  },
  include: {
    default: [],
    rule: { kind: 'patterns', item: 'tool-name pattern' },
    en: 'Tools to watch (`*` wildcard); empty: every tool.',
    zh: '要关注的工具（支持 `*` 通配符）；为空时关注所有工具。',
  },
  exclude: {
    default: [],
    rule: { kind: 'patterns', item: 'tool-name pattern' },
    en: 'Tools that neither count nor break a cycle.',
    zh: '既不计数、也不打断环的工具。',
  },
  progressAware: {
    default: true,
    rule: { kind: 'boolean' },
    en: 'Count only repeats without progress; false counts every repeat.',
    zh: '只计没有进展的重复；为 false 时每次重复都计数。',
  },
  errorRepeatCount: {
    default: 3,
    rule: { kind: 'integer', min: 2 },
    en: 'Failures of one tool with the same error, across arguments, that make a notice.',
    zh: '同一工具以相同错误失败（参数各异）多少次时提醒。',
  },
  inputErrorRepeatCount: {
    default: 5,
    rule: { kind: 'integer', min: 2 },
    en: 'The same, when the tool rejected the input (trying fixes is work).',
    zh: '同上，针对工具拒绝输入的错误（尝试修正是在工作）。',
  },
  sameFailureCount: {
    default: 3,
    rule: { kind: 'integer', min: 2 },
    en: 'Runs in a row of a check failing the same way, each after edits that missed the failure.',
    zh: '检查连续相同失败的次数（编辑都未触及失败）。',
  },
  toolPolicies: {
    default: {},
    rule: { kind: 'policies' },
    en: 'A tool\'s class (default, read, poller, mutating, bookkeeping) and identity fields.',
    zh: '工具的类别（default、read、poller、mutating、bookkeeping）与身份字段。',
  },
  fileChangingCommands: {
    default: [],
    rule: { kind: 'patterns', item: 'command pattern' },
    en: 'More shell commands that change files.',
    zh: '另行视为会修改文件的 shell 命令。',
  },
  streamCut: {
    default: true,
    rule: { kind: 'boolean' },
    en: 'Cut a response that falls into repeating itself while it streams.',
    zh: '回复在流式输出中陷入自我重复时将其截断。',
  },
  streamCutChars: {
    default: 3200,
    rule: { kind: 'integer', min: 256 },
    en: 'Characters of back-to-back repetition that end such a response (3 copies at least).',
    zh: '连续重复达到多少字符时截断回复（至少 3 份）。',
  },
  streamCutCopies: {
    default: 20,
    rule: { kind: 'integer', min: 3 },
    en: 'Copies of a repeated unit that end such a response, however short (256 characters at least).',
    zh: '被重复的单元达到多少份时截断回复，无论多短（至少 256 字符）。',
  },
  telemetryNoticeSeverity: {
    default: 'info',
    // The severities DSH's telemetry seam lets a listener set; refusals, stops and cuts are `warn` whatever this says.
    rule: { kind: 'choice', values: ['info', 'warn', 'error'] },
    en: 'The severity of a notice\'s record in DSH\'s OpenTelemetry logs (refusals, stops and cuts are `warn`).',
    zh: 'notice 的记录在 DSH 的 OpenTelemetry 日志中的级别（拒绝、终止和截断为 `warn`）。',
  },
} as const satisfies Record<string, KeyEntry>

/** A config key's name. */
export type ConfigKey = keyof typeof KEYS

/** The table's rows, in its order. */
export const KEY_ENTRIES = Object.entries(KEYS) as readonly (readonly [ConfigKey, KeyEntry])[]

/** The value a rule accepts, as `apply` receives it. */
type ValueOf<R extends Rule> =
  R extends { readonly kind: 'choice'; readonly values: readonly (infer V)[] } ? V
    : R extends { readonly kind: 'integer' } ? number
      : R extends { readonly kind: 'boolean' } ? boolean
        : R extends { readonly kind: 'patterns' } ? string[]
          : Record<string, ToolPolicy>

/** dsh-brake's configuration, as `apply` receives it (every key present: the schema fills the defaults). */
export type Config = { -readonly [K in ConfigKey]: ValueOf<(typeof KEYS)[K]['rule']> }

/**
 * How far the brake goes: only tell the model (`remind`), also refuse exact repeats (`deny`), or also end the turn of a
 * loop that goes on after it was told (`stop`).
 */
export type Mode = Config['mode']

/** The defaults: what the schema fills in for a key left out. */
export const DEFAULTS = Object.freeze(Object.fromEntries(KEY_ENTRIES.map(([key, entry]) => [key, entry.default]))) as Readonly<Config>

// What the compiler can check of the table beyond its shape: each default is a value its rule accepts, and a key that
// must be above another names a key that exists. An error here names the key at fault.
type Misfit = {
  [K in ConfigKey]: (typeof KEYS)[K]['default'] extends Readonly<Config[K]>
    ? (typeof KEYS)[K]['rule'] extends { readonly above: infer Other } ? Other extends ConfigKey ? never : K : never
    : K
}[ConfigKey]
const _tableFits: [Misfit] extends [never] ? true : `a default its rule refuses, or an unknown key to be above, at ${Misfit}` = true
