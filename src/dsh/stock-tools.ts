/**
 * What dsh-brake knows of the tools DSH's stock profiles register (0.1.0-rc.8): how each one's calls are judged, and
 * which shell commands change files. The core takes these as data (`createPolicyResolver`); a user's `toolPolicies`
 * are consulted first.
 * @module dsh-brake/dsh/stock-tools
 */
import type { ToolPolicies } from '../core/identity/policies.js'

/** An approval-related argument of the file and shell tools; it changes what may run, so it is part of identity. */
const SANDBOX = ['sandbox_permissions']

/**
 * Shell commands whose job is to change files or the repository, as patterns over a simple command's words (`cd x &&`
 * is a simple command of its own; `sudo`, `env`, `timeout N` and the like are stripped). A shell call is not a change by itself (the same
 * failing command run again and again is the commonest loop there is), but one of these is, and so is a redirect into
 * a file, `tee` or a heredoc written into a file: when such a call has arguments not used since the last progress, it
 * is progress, like an `edit`. Users add their own with `fileChangingCommands`.
 */
export const FILE_CHANGING_SHELL_COMMANDS: readonly string[] = Object.freeze([
  'git add *', 'git am*', 'git apply*', 'git checkout *', 'git cherry-pick *', 'git commit*', 'git merge*', 'git mv *',
  'git rebase*', 'git reset*', 'git restore*', 'git revert*', 'git rm *', 'git stash*', 'git switch *',
  'sed -i*', 'sed * -i*', 'perl -i*', 'perl -pi*', 'perl * -i*', 'patch *', 'mv *', 'cp *', 'rm *', 'mkdir *',
  'touch *', 'ln *', 'chmod *', 'truncate *', 'dd *', 'unzip *', 'tar -x*', 'tar x*',
  'npm install*', 'npm i *', 'npm ci*', 'npm uninstall*', 'pnpm add *', 'pnpm install*', 'pnpm remove *',
  'yarn add *', 'yarn install*', 'pip install *', 'pip3 install *', 'python -m pip install *',
  'python3 -m pip install *', 'uv pip install *', 'uv add *', 'python setup.py install*', 'python setup.py develop*',
  'cargo add *', 'go get *', 'go mod tidy*', 'apt-get install *', 'apt install *',
])

/** The argument fields of a shell call that decide what it does. */
const SHELL_IDENTITY = ['command', 'workdir', 'run_in_background', ...SANDBOX]

/**
 * Policies for the stock tools. Fields left out of `identity` change nothing about what a call does: `description`
 * and `justification` are display or approval text, `timeoutMs` / `timeout_ms` / `wait` only bound how long a call
 * may take.
 */
export const STOCK_TOOL_POLICIES: ToolPolicies = Object.freeze({
  'bash': { class: 'default', identity: SHELL_IDENTITY, shellCommand: 'command' },
  'pwsh': { class: 'default', identity: SHELL_IDENTITY, shellCommand: 'command' },
  'write': { class: 'mutating', identity: ['file_path', 'content', ...SANDBOX], edits: { file: 'file_path', content: 'content' } },
  'edit': {
    class: 'mutating', identity: ['file_path', 'old_string', 'new_string', 'replace_all', ...SANDBOX],
    edits: { file: 'file_path', old: 'old_string', new: 'new_string' },
  },
  // `create` writes `file_text` whole, `str_replace` replaces, `insert` inserts `new_str`; `undo_edit` is unseen.
  'str_replace_editor': {
    class: 'mutating', byArgument: { command: { view: 'read' } }, edits: { file: 'path', content: 'file_text', old: 'old_str', new: 'new_str' },
  },
  'job_kill': { class: 'mutating', identity: ['job_id'] },
  'job_output': { class: 'poller', identity: ['job_id'] },
  'job_list': { class: 'poller' },
  'list_agents': { class: 'poller' },
  'read': { class: 'read' },
  'read_image': { class: 'read' },
  'glob': { class: 'read' },
  'grep': { class: 'read' },
  'skill': { class: 'read' },
  'web_search': { class: 'read' },
  'web_fetch': { class: 'read' },
  'get_goal': { class: 'read' },
  'todo_write': { class: 'bookkeeping' },
  'create_goal': { class: 'bookkeeping' },
  'update_goal': { class: 'bookkeeping' },
  'exit_plan_mode': { class: 'bookkeeping' },
  'ask_user_question': { class: 'bookkeeping' },
  'subagent': { class: 'default', identity: ['prompt', 'run_in_background'] },
  'subagent_fork': { class: 'default', identity: ['prompt', 'run_in_background'] },
  'run_code': { class: 'default', identity: ['code'] },
})

/**
 * The tools that delegate to a subagent. A foreground delegation whose child was stopped fails, and its result is
 * where the stop's reason reaches the parent.
 */
export const SUBAGENT_TOOLS: readonly string[] = Object.freeze(['subagent', 'subagent_fork'])

/** The stock plugin that reminds the model of identical calls in a row (every stock profile mounts it). */
export const REMINDER = 'repeat-tool-reminder'

/**
 * The tool a repeat-tool-reminder notice is about, from its source (summary `{tool} × {count}`), or undefined for any
 * other message. Its notice follows the result of the call that made the run of identical calls, the latest call of
 * that tool when the next step claims it.
 */
export function reminderCall(source: { readonly kind: string; readonly plugin?: unknown; readonly summary?: unknown }): string | undefined {
  if (source.kind !== 'plugin' || source.plugin !== REMINDER || typeof source.summary !== 'string') return undefined
  // What `/^(.+) × \d+$/` reads (a tool name holds no line break), without its cost: the `×` makes the text two-byte
  // and the pattern backtracks from its end, over 100 ns a notice, where this takes a few (the telemetry listener
  // reads every such record).
  const summary = source.summary
  const at = summary.lastIndexOf(TIMES)
  const count = at + TIMES.length
  if (at <= 0 || count === summary.length) return undefined
  for (let i = count; i < summary.length; i++) {
    const code = summary.charCodeAt(i)
    if (code < 48 || code > 57) return undefined
  }
  return summary.slice(0, at)
}

const TIMES = ' × '
