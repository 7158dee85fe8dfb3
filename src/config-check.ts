/**
 * Checking a user's config the way a person fixes it: every problem at once, each naming the key, the rule and the
 * value received, and where it sits (a path of keys and indexes, which `dsh-brake doctor` turns into a file line).
 *
 * It reads the raw config as written, before any schema fills defaults or coerces types, so a quoted number is told
 * apart from a wrong type ("must be a number, got the string "3": write it without quotes") instead of the schema's
 * bare "expected number but got 3". What the keys are and which values they accept comes in as a {@link ConfigSpec}
 * built from the schema in config.ts, so this file holds only the rules and their wording.
 * @module dsh-brake/config-check
 */

/** One thing wrong with a config. */
export interface ConfigProblem {
  /** Where it is: keys and list indexes from the top of the row's `config` (empty: the config itself). */
  readonly path: readonly (string | number)[]
  /** What is wrong, naming the key, the rule and the value: "`callWarnCount` must be an integer >= 2, got 1". */
  readonly message: string
}

/** What the checker needs to know of the config's shape. */
export interface ConfigSpec {
  /** Every key with its default; a default's type is the key's type. */
  readonly defaults: Readonly<Record<string, unknown>>
  /** The values `mode` accepts. */
  readonly modes: readonly string[]
  /** The classes a tool policy can name. */
  readonly classes: readonly string[]
  /** Integer keys and their ranges. */
  readonly ranges: Readonly<Record<string, { readonly min: number; readonly max?: number }>>
  /** List keys and what one item is, in words ("tool-name pattern"). */
  readonly lists: Readonly<Record<string, string>>
}

type Path = readonly (string | number)[]

const POLICY_KEYS = ['class', 'identity', 'byArgument', 'shellCommand']

/** Every problem in `raw`, in the order the keys are listed in the spec (unknown keys first). */
export function checkConfig(raw: unknown, spec: ConfigSpec): ConfigProblem[] {
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
  const keys = Object.keys(spec.defaults)
  for (const key of Object.keys(raw)) {
    if (!keys.includes(key)) report([key], `unknown config key \`${key}\` (valid keys: ${keys.join(', ')})`)
  }
  for (const key of keys) {
    // A key with no value (`callWarnCount:` in YAML) takes its default, as the schema treats it.
    if (raw[key] === undefined || raw[key] === null) continue
    const value = raw[key]
    const range = spec.ranges[key]
    const item = spec.lists[key]
    if (key === 'mode') checkChoice(report, [key], value, spec.modes)
    else if (range !== undefined) checkInteger(report, key, value, range)
    else if (item !== undefined) checkList(report, [key], value, item)
    else if (key === 'toolPolicies') checkPolicies(report, value, spec.classes)
    else if (typeof spec.defaults[key] === 'boolean') checkBoolean(report, key, value)
    // A number key without a range yet is still checked for being a number.
    else if (typeof spec.defaults[key] === 'number') checkInteger(report, key, value, undefined)
  }
  checkDenyAboveWarn(report, raw, spec)
  return problems
}

type Report = (path: Path, message: string) => void

/** `callDenyCount` must leave room for the notices before the refusals; judged only when both counts are valid. */
function checkDenyAboveWarn(report: Report, raw: Record<string, unknown>, spec: ConfigSpec): void {
  const warn = raw['callWarnCount'] ?? spec.defaults['callWarnCount']
  const deny = raw['callDenyCount'] ?? spec.defaults['callDenyCount']
  if (!Number.isSafeInteger(warn) || !Number.isSafeInteger(deny)) return
  if ((deny as number) <= (warn as number)) {
    report(['callDenyCount' in raw ? 'callDenyCount' : 'callWarnCount'],
      `\`callDenyCount\` must be greater than \`callWarnCount\` (${String(warn)}), got ${String(deny)}`)
  }
}

/** An integer in `range`; without a range, any finite number. */
function checkInteger(report: Report, key: string, value: unknown, range: { min: number; max?: number } | undefined): void {
  const rule = range === undefined ? 'a number' : range.max === undefined ? `an integer >= ${range.min}` : `an integer from ${range.min} to ${range.max}`
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    report([key], `\`${key}\` must be a number, got the string ${show(value)}: write it without quotes`)
    return
  }
  const ok = typeof value === 'number' && (range === undefined
    ? Number.isFinite(value)
    : Number.isSafeInteger(value) && value >= range.min && value <= (range.max ?? Infinity))
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
      if (!POLICY_KEYS.includes(key)) report([...at, key], `unknown policy key \`${dotted([...at, key])}\` (valid keys: ${POLICY_KEYS.join(', ')})`)
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
