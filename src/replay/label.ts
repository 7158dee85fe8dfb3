/**
 * The labelling rule: which stretches of an agent's calls are loops, independently of any detector.
 *
 * The evaluation scores detectors against these labels, and `dsh-brake analyze` reports them as the loops it found, so
 * the rule lives apart from the detectors, in one module (its cases are in test/replay/label.spec.ts). It starts from
 * the real traces' README rule and makes every part of it explicit; docs/evaluation.md states the same rule in prose.
 * In short, per agent and starting over at each person's message:
 *
 * - a call's *action* is its tool and key-sorted arguments (a shell call's `description` and `timeout` left out); its
 *   *outcome* is its error flag and its result text with volatile parts (times, dates, durations, hex ids,
 *   percentages, progress bars, temporary paths) blanked;
 * - an *edit* is a successful file change, by a file tool or by a shell command that writes; an edit is *progress*
 *   unless it repeats an earlier edit of the segment exactly (writing what was written before restores a state
 *   already seen);
 * - rule I: the same action with the same outcome at least 4 times with no progress in between (not necessarily back
 *   to back);
 * - rule C: a cycle of 2 to 4 calls (not all the same action) repeated back to back for at least 3 laps, every call
 *   with the action and outcome of the call one period earlier;
 * - rule L: a run of consecutive calls, each repeating (same action and outcome) a call at most 20 calls earlier and
 *   after the last progress; the calls from the earliest one the run refers to up to the run's start are its first
 *   lap, of P calls; a loop when P is 5 to 20 and the run is at least P calls long: two full laps of a long cycle,
 *   in any order within the lap (paging through a file again, a long viewing cycle);
 * - loops that overlap or touch form one episode;
 * - a loop *begins* at its first repeat: the second of the identical calls (I), the first call of the second lap (C),
 *   the first call of the run (L). The first time an agent does something is work, not yet a loop; delays are
 *   counted from the earliest beginning among an episode's loops.
 * @module dsh-brake/replay/label
 */
import type { AgentEvent, CallEvent } from './agent-events.js'

/** Same action and outcome this many times, with no progress between, is a loop (rule I). */
export const IDENTICAL_CALLS = 4
/** Cycle periods of rule C, and the laps it needs. */
export const CYCLE_PERIODS = [2, 3, 4] as const
export const CYCLE_LAPS = 3
/** Look-back bounds of rule L. */
export const LONG_PERIOD_MIN = 5
export const LONG_PERIOD_MAX = 20

/** Tools that run shell commands: judged by what their command does. */
const SHELL_TOOLS = new Set(['bash', 'shell', 'sh', 'zsh', 'pwsh', 'powershell', 'run_command', 'exec_command', 'terminal'])
/** Tools whose job is to change files. */
const FILE_TOOLS = new Set(['write', 'edit', 'multi_edit', 'multiedit', 'apply_patch', 'notebook_edit', 'create_file'])
/** Editor tools with a `command` argument: every command but `view` changes a file. */
const EDITOR_TOOLS = new Set(['str_replace_editor', 'str_replace_based_edit_tool'])
/** Shell-call arguments that do not change what is run. */
const SHELL_IGNORED_ARGS = new Set(['description', 'timeout'])
/** Editor results that report the change was not made, although the call is not marked as an error. */
const EDIT_REJECTED = /has introduced new syntax error|No replacement was performed|did not appear verbatim|Cannot overwrite|does not exist|^Invalid /i

/** What the labeller works out about one call. */
export interface CallFacts {
  /** The call's index within its agent, 0-based since the run start. */
  readonly index: number
  readonly tool: string
  readonly args: unknown
  readonly action: string
  readonly outcome: string
  /** A successful file change (by a file tool or a shell command that writes). */
  readonly edit: boolean
  /** The change was made by a shell command. */
  readonly shellEdit: boolean
  /** An edit that does not repeat an earlier edit of the segment: progress. */
  readonly progress: boolean
  /** `new`: first time this action in the segment; `same`: the last call with this action had the same outcome. */
  readonly repeat: 'new' | 'same' | 'changed'
  readonly isError: boolean
  readonly text: string
}

/** Which rule found a stretch. */
export type Rule = 'I' | 'C' | 'L'

/** One loop episode of one agent, in its call indexes. */
export interface Episode {
  readonly agent: string
  /** The first call of the loop (its first lap, or the first of the identical calls). */
  readonly start: number
  /** The loop's first repeat: where it begins (see the module comment). */
  readonly begins: number
  /** The last call of the loop. */
  readonly end: number
  /** The call at which a rule is first satisfied. */
  readonly labelledAt: number
  readonly rules: readonly Rule[]
  /** The shortest period found: 1 for identical calls. */
  readonly period: number
}

/** The labels of one agent of a run. */
export interface AgentLabels {
  readonly agent: string
  /** The calls the agent ran, in order (a `skipped` call is left out; each keeps its `index`). */
  readonly calls: readonly CallFacts[]
  readonly episodes: readonly Episode[]
}

interface Span {
  start: number
  begins: number
  end: number
  labelledAt: number
  rule: Rule
  period: number
}

/** Label every agent of a run. */
export function labelRun(events: readonly AgentEvent[]): AgentLabels[] {
  const byAgent = new Map<string, AgentEvent[]>()
  for (const event of events) {
    if (event.kind !== 'user' && event.kind !== 'call') continue
    let list = byAgent.get(event.agent)
    if (list === undefined) byAgent.set(event.agent, list = [])
    list.push(event)
  }
  const out: AgentLabels[] = []
  for (const [agent, list] of byAgent) out.push(labelAgent(agent, list))
  return out
}

/** Label one agent's events: split into segments at each person's message, find the loops of each. */
export function labelAgent(agent: string, events: readonly AgentEvent[]): AgentLabels {
  const calls: CallFacts[] = []
  const spans: Span[] = []
  let segment: CallFacts[] = []
  let index = 0
  for (const event of events) {
    if (event.kind === 'user') {
      spans.push(...findLoops(segment))
      segment = []
      continue
    }
    // Steps and compactions are the detectors' business; the rule reads calls and a person's messages only.
    if (event.kind !== 'call') continue
    // A call DSH never ran did nothing, loop or not; it keeps its number, so the others' match the log.
    if (event.skipped === true) {
      index++
      continue
    }
    segment.push(describeCall(event, index++, segment))
    calls.push(segment[segment.length - 1]!)
  }
  spans.push(...findLoops(segment))
  return { agent, calls, episodes: mergeSpans(agent, spans) }
}

/** The facts of one call, given the calls of its segment before it. */
function describeCall(event: CallEvent, index: number, before: readonly CallFacts[]): CallFacts {
  const action = actionOf(event.tool, event.args)
  const outcome = `${event.isError ? 'error' : 'ok'}\n${normalizeOutcome(event.text)}`
  const shellEdit = !event.isError && SHELL_TOOLS.has(event.tool) && shellWrites(commandOf(event.args))
  const edit = shellEdit || (!event.isError && fileToolChanges(event.tool, event.args, event.text))
  let repeat: CallFacts['repeat'] = 'new'
  let progress = edit
  for (let j = before.length - 1; j >= 0; j--) {
    const earlier = before[j]!
    if (earlier.action !== action) continue
    if (repeat === 'new') repeat = earlier.outcome === outcome ? 'same' : 'changed'
    if (earlier.edit) progress = false
    if (!progress) break
  }
  return {
    index, tool: event.tool, args: event.args, action, outcome, edit, shellEdit, progress, repeat, isError: event.isError, text: event.text,
  }
}

/** Every loop span of one segment (calls between two person's messages). */
export function findLoops(calls: readonly CallFacts[]): Span[] {
  return [...identicalCalls(calls), ...shortCycles(calls), ...longCycles(calls)]
}

/** Rule I: the same action and outcome IDENTICAL_CALLS times or more, with no progress between. */
function identicalCalls(calls: readonly CallFacts[]): Span[] {
  const spans: Span[] = []
  const chains = new Map<string, { outcome: string; epoch: number; count: number; first: number; second: number; span: Span | undefined }>()
  let epoch = 0
  for (const call of calls) {
    // An edit that is progress starts a new epoch, itself included: its own repeats count from it.
    if (call.progress) epoch++
    const chain = chains.get(call.action)
    if (chain === undefined || chain.outcome !== call.outcome || chain.epoch !== epoch) {
      chains.set(call.action, { outcome: call.outcome, epoch, count: 1, first: call.index, second: -1, span: undefined })
      continue
    }
    chain.count++
    if (chain.count === 2) chain.second = call.index
    if (chain.count < IDENTICAL_CALLS) continue
    if (chain.span === undefined) {
      chain.span = { start: chain.first, begins: chain.second, end: call.index, labelledAt: call.index, rule: 'I', period: 1 }
      spans.push(chain.span)
    } else {
      chain.span.end = call.index
    }
  }
  return spans
}

/** Rule C: a cycle of 2 to 4 calls, not all one action, repeated back to back for CYCLE_LAPS laps. */
function shortCycles(calls: readonly CallFacts[]): Span[] {
  const spans: Span[] = []
  for (const period of CYCLE_PERIODS) {
    let runStart = -1
    for (let i = period; i <= calls.length; i++) {
      const matches = i < calls.length && sameCall(calls[i]!, calls[i - period]!)
      if (matches && runStart === -1) runStart = i
      if (matches) continue
      if (runStart !== -1) {
        const first = runStart - period
        const last = i - 1
        if (last - first + 1 >= period * CYCLE_LAPS && !oneAction(calls.slice(first, first + period))) {
          spans.push({
            start: calls[first]!.index,
            begins: calls[first + period]!.index,
            end: calls[last]!.index,
            labelledAt: calls[first + period * CYCLE_LAPS - 1]!.index,
            rule: 'C',
            period,
          })
        }
      }
      runStart = -1
    }
  }
  return spans
}

/**
 * Rule L: a run of calls that each repeat a call at most LONG_PERIOD_MAX back, after the last progress. The calls the
 * run first repeats, from the earliest one it refers to up to the run's start, are its first lap (P calls); the run
 * is a loop when P is LONG_PERIOD_MIN to LONG_PERIOD_MAX and the run is at least P calls long: a second full lap,
 * in any order within the lap.
 */
function longCycles(calls: readonly CallFacts[]): Span[] {
  const spans: Span[] = []
  const back = lookBacks(calls)
  let i = 0
  while (i < calls.length) {
    if (back[i] === undefined) {
      i++
      continue
    }
    const runStart = i
    let origin = i
    let labelledAt = -1
    let period = 0
    while (i < calls.length && back[i] !== undefined) {
      origin = Math.min(origin, i - back[i]!)
      if (labelledAt === -1 && runStart - origin >= LONG_PERIOD_MIN && i - runStart + 1 >= runStart - origin) {
        labelledAt = i
        period = runStart - origin
      }
      i++
    }
    if (labelledAt !== -1) {
      spans.push({
        start: calls[origin]!.index, begins: calls[runStart]!.index, end: calls[i - 1]!.index, labelledAt: calls[labelledAt]!.index, rule: 'L', period,
      })
    }
  }
  return spans
}

/** For each call, how far back the latest call with its action and outcome is (after the last progress), if close. */
function lookBacks(calls: readonly CallFacts[]): (number | undefined)[] {
  const out: (number | undefined)[] = []
  let lastProgress = -1
  for (let i = 0; i < calls.length; i++) {
    if (calls[i]!.progress) lastProgress = i
    let found: number | undefined
    for (let j = i - 1; j > lastProgress && j >= i - LONG_PERIOD_MAX; j--) {
      if (sameCall(calls[i]!, calls[j]!)) {
        found = i - j
        break
      }
    }
    out.push(calls[i]!.progress ? undefined : found)
  }
  return out
}

function sameCall(a: CallFacts, b: CallFacts): boolean {
  return a.action === b.action && a.outcome === b.outcome
}

function oneAction(lap: readonly CallFacts[]): boolean {
  return lap.every(call => call.action === lap[0]!.action)
}

/** Overlapping or touching spans become one episode. */
function mergeSpans(agent: string, spans: readonly Span[]): Episode[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || a.end - b.end)
  const episodes: Episode[] = []
  let current: OpenEpisode | undefined
  for (const span of sorted) {
    if (current !== undefined && span.start <= current.end + 1) {
      current.end = Math.max(current.end, span.end)
      current.labelledAt = Math.min(current.labelledAt, span.labelledAt)
      current.begins = Math.min(current.begins, span.begins)
      current.rules.add(span.rule)
      current.period = Math.min(current.period, span.period)
      continue
    }
    if (current !== undefined) episodes.push(freeze(agent, current))
    current = {
      start: span.start, begins: span.begins, end: span.end, labelledAt: span.labelledAt, rules: new Set([span.rule]), period: span.period,
    }
  }
  if (current !== undefined) episodes.push(freeze(agent, current))
  return episodes
}

interface OpenEpisode {
  start: number
  begins: number
  end: number
  labelledAt: number
  rules: Set<Rule>
  period: number
}

function freeze(agent: string, span: OpenEpisode): Episode {
  const rules = (['I', 'C', 'L'] as const).filter(rule => span.rules.has(rule))
  return { agent, start: span.start, begins: span.begins, end: span.end, labelledAt: span.labelledAt, rules, period: span.period }
}

// ── actions and outcomes ─────────────────────────────────────────────────────────────────────────────────────────

/** A call's action: its tool and key-sorted arguments, a shell call's description and timeout left out. */
export function actionOf(tool: string, args: unknown): string {
  let kept = args
  if (SHELL_TOOLS.has(tool) && args !== null && typeof args === 'object' && !Array.isArray(args)) {
    kept = Object.fromEntries(Object.entries(args).filter(([key]) => !SHELL_IGNORED_ARGS.has(key)))
  }
  return `${tool} ${JSON.stringify(sortKeys(kept))}`
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key])
  return out
}

/** Volatile parts of a result, each with what replaces it. Order matters: dates before times, times before numbers. */
const VOLATILE: readonly [RegExp, string][] = [
  // Temporary paths: /tmp/…, /var/folders/…, /private/var/…, tmpXXXX names.
  [/(?:\/private)?\/(?:tmp|var\/folders|var\/tmp)\/[^\s'"`:,)\]]*/g, '<tmp>'],
  [/\btmp[a-z0-9_]{5,}\b/gi, '<tmp>'],
  // Dates and times: 2024-01-31, 2024/01/31, 31/01/2024, Jan 31, 12:34, 12:34:56.789, ISO stamps with zones.
  [/\b\d{4}[-/]\d{2}[-/]\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, '<date>'],
  [/\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g, '<date>'],
  [/\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? (?:\d{1,2} )?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d{1,2}\b/g, '<date>'],
  [/\b\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?\b/g, '<time>'],
  // UUIDs and hex ids (0x… addresses, commit hashes, object ids): at least 7 hex digits with a digit among them.
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi, '<hex>'],
  // Progress bars: runs of block characters, [=====>    ], |####   |.
  [/[█▉▊▋▌▍▎▏░▒▓■□━─]{3,}/g, '<bar>'],
  [/\[[=#>.\- ]{5,}\]/g, '<bar>'],
  [/\|[#=>█ ]{5,}\|/g, '<bar>'],
  // Percentages and durations: 45%, 12.5 %, 0.52s, 3 ms, 1.2 seconds, 2m30s, (1 min).
  [/\b\d+(?:\.\d+)?\s?%/g, '<pct>'],
  [/\b\d+(?:\.\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hrs?|hours?)\b/gi, '<dur>'],
  [/\b\d+h\d+m(?:\d+s)?\b|\b\d+m\d+s\b/g, '<dur>'],
]

/** A result text with times, dates, durations, hex ids, percentages, progress bars and temporary paths blanked. */
export function normalizeOutcome(text: string): string {
  let out = text
  for (const [pattern, replacement] of VOLATILE) out = out.replace(pattern, replacement)
  return out
}

// ── edits ────────────────────────────────────────────────────────────────────────────────────────────────────────

/** Whether a successful call of a file tool changed a file. */
function fileToolChanges(tool: string, args: unknown, text: string): boolean {
  if (FILE_TOOLS.has(tool)) return !EDIT_REJECTED.test(text)
  if (!EDITOR_TOOLS.has(tool)) return false
  const command = (args as { command?: unknown } | null)?.command
  return command !== 'view' && !EDIT_REJECTED.test(text)
}

function commandOf(args: unknown): string {
  const command = (args as { command?: unknown } | null)?.command
  return typeof command === 'string' ? command : ''
}

/** Python that writes files, whether inline (`python -c`) or from a heredoc. */
const PYTHON_WRITES = /open\([^)]*,\s*(?:mode\s*=\s*)?['"](?:w|a|x|wb|ab|w\+|r\+|a\+)['"]|\.write_text\(|\.write_bytes\(|shutil\.(?:copy|copyfile|copy2|move|rmtree)\(|os\.(?:remove|rename|replace|unlink|makedirs|mkdir)\(|\.unlink\(/
/** Programs that change files whatever their arguments. */
const WRITING_PROGRAMS = new Set(['mv', 'cp', 'rm', 'touch', 'mkdir', 'rmdir', 'ln', 'patch', 'truncate', 'tee', 'install', 'unzip'])
/** Prefixes that run the rest of a simple command: `timeout 30 pytest` runs `pytest`. */
const WRAPPERS = new Set(['sudo', 'nohup', 'time', 'command', 'exec', 'builtin', 'stdbuf', 'nice', 'xargs'])

/**
 * Whether a shell command writes files: a redirect to a file other than /dev/null, tee, a heredoc into a file,
 * `sed -i` / `perl -i`, patch, `git apply` / `checkout` / `restore` / `reset` / `stash`, package installs, mv, cp, rm,
 * touch, mkdir, or Python (inline or from a heredoc) that opens a file for writing. `cd X &&`, `timeout N`,
 * `env A=B`, `A=B` and `sudo` prefixes are stripped first. Quoted text and heredoc bodies are not read as commands.
 */
export function shellWrites(command: string): boolean {
  const { shell, bodies } = splitHeredocs(command)
  if (/\bpython[\d.]*\b/.test(command) && (PYTHON_WRITES.test(bodies) || PYTHON_WRITES.test(shell))) return true
  const unquoted = shell.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, 'Q')
  // A redirect to anything but /dev/null or another descriptor; `<<` (heredoc) and `<` are reads.
  for (const match of unquoted.matchAll(/(?:^|[^<>&\d])\d?(?:>>?|&>>?|>\|)\s*([^\s;&|)]+)/g)) {
    const target = match[1]!
    if (target !== '/dev/null' && !target.startsWith('&')) return true
  }
  for (const simple of unquoted.split(/&&|\|\||[;|\n]/)) {
    if (simpleCommandWrites(stripPrefixes(simple.trim().split(/\s+/).filter(word => word !== '')))) return true
  }
  return false
}

/** The command with heredoc bodies taken out, and the bodies apart. */
function splitHeredocs(command: string): { shell: string; bodies: string } {
  const lines = command.split('\n')
  const shell: string[] = []
  const bodies: string[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]!
    shell.push(line)
    i++
    const tag = /<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?/.exec(line)?.[1]
    if (tag === undefined) continue
    while (i < lines.length && lines[i]!.trim() !== tag) bodies.push(lines[i++]!)
    i++
  }
  return { shell: shell.join('\n'), bodies: bodies.join('\n') }
}

function stripPrefixes(words: string[]): string[] {
  let rest = words
  while (rest.length > 0) {
    const first = rest[0]!
    if (WRAPPERS.has(first)) rest = rest.slice(1)
    else if (first === 'env') rest = rest.slice(1)
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first)) rest = rest.slice(1)
    else if (first === 'timeout') {
      rest = rest.slice(1)
      while (rest[0]?.startsWith('-')) rest = rest.slice(rest[0] === '-s' || rest[0] === '-k' ? 2 : 1)
      rest = rest.slice(1)
    } else break
  }
  return rest
}

function simpleCommandWrites(words: readonly string[]): boolean {
  const program = words[0]?.replace(/^.*\//, '')
  if (program === undefined) return false
  const args = words.slice(1)
  if (WRITING_PROGRAMS.has(program)) return program !== 'tee' || args.some(arg => !arg.startsWith('-') && arg !== '/dev/null')
  if (program === 'sed' || program === 'perl') return args.some(arg => /^-[a-zA-Z]*i/.test(arg) || arg.startsWith('--in-place'))
  if (program === 'awk' || program === 'gawk') return args.includes('inplace')
  if (program === 'git') return ['apply', 'checkout', 'restore', 'reset', 'stash', 'am', 'cherry-pick', 'revert', 'merge', 'rebase', 'pull', 'mv', 'rm'].includes(args[0] ?? '')
  if (/^pip[\d.]*$/.test(program) || program === 'conda' || program === 'uv') return ['install', 'uninstall', 'remove'].includes(args[0] ?? '') || (args[0] === 'pip' && args[1] === 'install')
  if (program === 'npm' || program === 'yarn' || program === 'pnpm') return ['install', 'i', 'add', 'ci', 'remove', 'uninstall'].includes(args[0] ?? '')
  if (/^python[\d.]*$/.test(program)) {
    if (args[0] === '-m' && /^pip[\d.]*$/.test(args[1] ?? '')) return ['install', 'uninstall'].includes(args[2] ?? '')
    if (args[0] === 'setup.py') return ['install', 'develop', 'build_ext', 'build'].includes(args[1] ?? '')
  }
  return false
}
