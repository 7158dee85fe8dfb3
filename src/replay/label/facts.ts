/**
 * The labelling rule's facts of one call: its action, its outcome, and whether it was an edit that made progress.
 * Deliberately not the core's code, though the core judges calls alike: the labels are the ground truth the detectors
 * are scored against, and a mistake shared with its judge would never show.
 * Design: docs/design.md#loop-kinds; the rule: docs/evaluation.md#the-labelling-rule
 * @module dsh-brake/replay/label/facts
 */
import type { CallEvent } from '../agent-events.js'

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

/** The facts of one call, given the calls of its segment before it. */
export function describeCall(event: CallEvent, index: number, before: readonly CallFacts[]): CallFacts {
  const action = actionOf(event.tool, event.args)
  const shellEdit = !event.isError && SHELL_TOOLS.has(event.tool) && shellWrites(commandOf(event.args))
  const edit = shellEdit || (!event.isError && fileToolChanges(event.tool, event.args, event.text))
  // The outcome is only read when the action comes again with another text: most calls' results are never
  // normalized, and none twice (here, and when a later call compares with this one).
  let outcome: string | undefined
  const facts = { isError: event.isError, text: event.text, get outcome() { return outcome ??= outcomeOf(event) } }
  let repeat: CallFacts['repeat'] = 'new'
  let progress = edit
  for (let j = before.length - 1; j >= 0; j--) {
    const earlier = before[j]!
    if (earlier.action !== action) continue
    if (repeat === 'new') repeat = sameOutcome(earlier, facts) ? 'same' : 'changed'
    if (earlier.edit) progress = false
    if (!progress) break
  }
  return {
    index, tool: event.tool, args: event.args, action, edit, shellEdit, progress, repeat, isError: event.isError, text: event.text,
    get outcome() {
      return facts.outcome
    },
  }
}

/** A call's outcome: its error flag and its result with the volatile parts blanked. */
function outcomeOf(event: Pick<CallEvent, 'isError' | 'text'>): string {
  return `${event.isError ? 'error' : 'ok'}\n${normalizeOutcome(event.text)}`
}

/** Whether two calls had the same outcome: the same result, or the same once volatile parts are blanked. */
export function sameOutcome(a: Pick<CallFacts, 'isError' | 'text' | 'outcome'>, b: Pick<CallFacts, 'isError' | 'text' | 'outcome'>): boolean {
  return a.isError === b.isError && (a.text === b.text || a.outcome === b.outcome)
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
