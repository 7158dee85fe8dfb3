/**
 * Checking a user's config the way a person fixes it: every problem at once, each naming the key, the rule, the value
 * received and where it sits. It reads the config as written, before any schema coerces it, and holds only how the
 * rules are checked and worded (the keys and their rules are the table's), and the one rule between keys.
 * Design: docs/design.md#config
 * @module dsh-brake/config/check
 */
import { closestSpelling } from '../words/spelling.js'
import { DEFAULTS, KEY_ENTRIES, TOOL_CLASSES, type ConfigKey } from './keys.js'

/** One thing wrong with a config. */
export interface ConfigProblem {
  /** Where it is: keys and list indexes from the top of the row's `config` (empty: the config itself). */
  readonly path: readonly (string | number)[]
  /** What is wrong, naming the key, the rule and the value: "`callWarnCount` must be an integer >= 2, got 1". */
  readonly message: string
}

type Path = readonly (string | number)[]

const POLICY_KEYS = ['class', 'identity', 'byArgument', 'shellCommand']

/** Every problem in a config as the user wrote it (a row's `config`), in the order of the keys (unknown keys first). */
export function configProblems(raw: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = []
  const report = (path: Path, message: string): void => {
    problems.push({ path, message })
  }
  // An empty row (`config:` with nothing after it) is YAML null: every default applies.
  if (raw === undefined || raw === null) return problems
  if (!isMapping(raw)) {
    report([], `the config must be a mapping of keys to values, got ${show(raw)}`)
    return problems
  }
  const keys: readonly string[] = Object.keys(DEFAULTS)
  for (const key of Object.keys(raw)) {
    if (!keys.includes(key)) report([key], `unknown config key \`${key}\`${didYouMean(key, keys)} (valid keys: ${keys.join(', ')})`)
  }
  for (const [key, { rule }] of KEY_ENTRIES) {
    // A key with no value (`callWarnCount:` in YAML) takes its default, as the schema treats it.
    if (raw[key] === undefined || raw[key] === null) continue
    const value = raw[key]
    switch (rule.kind) {
      case 'choice': checkChoice(report, [key], value, rule.values); break
      case 'integer': checkInteger(report, key, value, rule); break
      case 'boolean': checkBoolean(report, key, value); break
      case 'patterns': checkList(report, [key], value, rule.item); break
      case 'policies': checkPolicies(report, value, TOOL_CLASSES); break
    }
  }
  for (const [key, { rule }] of KEY_ENTRIES) {
    if (rule.kind === 'integer' && rule.above !== undefined) checkAbove(report, raw, key, rule.above as ConfigKey)
  }
  return problems
}

/**
 * `: did you mean \`callWarnCount\`?` after an unknown key one slip away from a real one; nothing otherwise. An unknown
 * key fails the load like any other mistake, as DSH's own plugins that check their keys do: a key that was meant to
 * change something and silently does not is the mistake a person cannot see.
 */
function didYouMean(key: string, keys: readonly string[]): string {
  const meant = closestSpelling(key, keys)
  return meant === undefined ? '' : `: did you mean \`${meant}\`?`
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

type Report = (path: Path, message: string) => void

/**
 * `key` must be greater than `other` (`callDenyCount` must leave room for the notices before the refusals); judged
 * only when both are valid integers, written or defaulted.
 */
function checkAbove(report: Report, raw: Record<string, unknown>, key: ConfigKey, other: ConfigKey): void {
  const low = raw[other] ?? DEFAULTS[other]
  const high = raw[key] ?? DEFAULTS[key]
  if (!isInteger(low) || !isInteger(high)) return
  if (high <= low) report([key in raw ? key : other], `\`${key}\` must be greater than \`${other}\` (${low}), got ${high}`)
}

const isInteger = (value: unknown): value is number => Number.isSafeInteger(value)

/** An integer from `min` (to `max`). */
function checkInteger(report: Report, key: string, value: unknown, range: { readonly min: number; readonly max?: number }): void {
  const rule = range.max === undefined ? `an integer >= ${range.min}` : `an integer from ${range.min} to ${range.max}`
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    report([key], `\`${key}\` must be a number, got the string ${show(value)}: write it without quotes`)
    return
  }
  const ok = isInteger(value) && value >= range.min && value <= (range.max ?? Infinity)
  if (!ok) report([key], `\`${key}\` must be ${rule}, got ${show(value)}`)
}

function checkBoolean(report: Report, key: string, value: unknown): void {
  if (typeof value === 'boolean') return
  const quoted = value === 'true' || value === 'false'
  report([key], `\`${key}\` must be true or false, got ${quoted ? `the string ${show(value)}: write it without quotes` : show(value)}`)
}

function checkChoice(report: Report, path: Path, value: unknown, choices: readonly string[]): void {
  if (typeof value === 'string' && choices.includes(value)) return
  report(path, `\`${dotted(path)}\` must be one of ${choices.map(choice => `\`${choice}\``).join(', ')}, got ${show(value)}`)
}

/** A list of non-empty strings (tool-name patterns, command patterns, argument names). */
function checkList(report: Report, path: Path, value: unknown, item: string): void {
  if (!Array.isArray(value)) {
    report(path, `\`${dotted(path)}\` must be a list of ${item}s, got ${show(value)}`)
    return
  }
  value.forEach((entry: unknown, index) => {
    const at = [...path, index]
    if (typeof entry !== 'string') report(at, `\`${dotted(at)}\` must be a ${item} (text), got ${show(entry)}`)
    else if (entry.trim() === '') report(at, `\`${dotted(at)}\` must be a non-empty ${item}, got ${show(entry)}`)
  })
}

function checkPolicies(report: Report, value: unknown, classes: readonly string[]): void {
  if (!isMapping(value)) {
    report(['toolPolicies'], `\`toolPolicies\` must be a mapping of tool-name patterns to policies, got ${show(value)}`)
    return
  }
  for (const [pattern, policy] of Object.entries(value)) {
    const at = ['toolPolicies', pattern]
    if (pattern.trim() === '') report(at, `\`toolPolicies\` keys must be non-empty tool-name patterns, got ${show(pattern)}`)
    if (!isMapping(policy)) {
      report(at, `\`${dotted(at)}\` must be a policy ({ class, identity, byArgument, shellCommand }), got ${show(policy)}`)
      continue
    }
    for (const key of Object.keys(policy)) {
      if (!POLICY_KEYS.includes(key)) report([...at, key], `unknown policy key \`${dotted([...at, key])}\`${didYouMean(key, POLICY_KEYS)} (valid keys: ${POLICY_KEYS.join(', ')})`)
    }
    if (policy['class'] === undefined) report(at, `\`${dotted([...at, 'class'])}\` is required: one of ${classes.map(name => `\`${name}\``).join(', ')}`)
    else checkChoice(report, [...at, 'class'], policy['class'], classes)
    if (policy['identity'] !== undefined) checkList(report, [...at, 'identity'], policy['identity'], 'argument name')
    if (policy['shellCommand'] !== undefined) checkShellCommand(report, [...at, 'shellCommand'], policy['shellCommand'])
    if (policy['byArgument'] !== undefined) checkByArgument(report, [...at, 'byArgument'], policy['byArgument'], classes)
  }
}

function checkShellCommand(report: Report, path: Path, value: unknown): void {
  if (typeof value !== 'string' || value === '') report(path, `\`${dotted(path)}\` must be a non-empty argument name, got ${show(value)}`)
}

/** argument name → (pattern → class). */
function checkByArgument(report: Report, path: Path, value: unknown, classes: readonly string[]): void {
  if (!isMapping(value)) {
    report(path, `\`${dotted(path)}\` must be a mapping of argument names to { pattern: class }, got ${show(value)}`)
    return
  }
  for (const [argument, patterns] of Object.entries(value)) {
    const at = [...path, argument]
    if (!isMapping(patterns)) {
      report(at, `\`${dotted(at)}\` must be a mapping of patterns to classes, got ${show(patterns)}`)
      continue
    }
    for (const [pattern, name] of Object.entries(patterns)) checkChoice(report, [...at, pattern], name, classes)
  }
}

/** A YAML mapping as parsed: an object that is not a list. */
export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `toolPolicies.bash.identity[1]`: keys joined by dots, list indexes in brackets. */
export function dotted(path: Path): string {
  return path.map((part, index) => typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`).join('')
}

/** A received value as the user would recognise it in their file. */
function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (value === null) return 'nothing (null)'
  if (Array.isArray(value)) return `a list (${JSON.stringify(value).slice(0, 60)})`
  if (typeof value === 'object') return `a mapping (${JSON.stringify(value).slice(0, 60)})`
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  return typeof value
}
