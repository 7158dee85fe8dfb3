/**
 * What dsh-brake knows of the tools DSH's stock profiles register (0.1.0-rc.8): how each one's calls are judged, and
 * which shell commands change files. The core takes these as data (`createPolicyResolver`); a user's `toolPolicies`
 * are consulted first.
 * @module dsh-brake/dsh/stock-tools
 */
import type { ToolClass } from '../core/types.js'
import type { ToolPolicies } from '../core/policies.js'

/** An approval-related argument of the file and shell tools; it changes what may run, so it is part of identity. */
const SANDBOX = ['sandbox_permissions']

/**
 * Shell commands whose job is to change files or the repository. A shell call is not a change by itself (the same
 * failing command run again and again is the commonest loop there is), but these are: when one of them succeeds
 * with arguments not used since the last progress, it is progress, like an `edit`.
 */
export const FILE_CHANGING_SHELL_COMMANDS: readonly string[] = Object.freeze([
  'git add *', 'git apply*', 'git checkout *', 'git commit*', 'git merge*', 'git mv *', 'git rebase*', 'git reset*',
  'git restore*', 'git rm *', 'git stash*', 'git switch *', 'sed -i*', 'perl -i*', 'perl -pi*', 'patch *', 'mv *',
  'cp *', 'rm *', 'mkdir *', 'touch *', 'npm install*', 'npm i *', 'npm uninstall*', 'pnpm add *', 'pnpm install*',
  'pnpm remove *', 'yarn add *', 'yarn install*', 'pip install *', 'cargo add *', 'go get *',
])

const SHELL_CHANGES: Readonly<Record<string, ToolClass>> =
  Object.fromEntries(FILE_CHANGING_SHELL_COMMANDS.map(pattern => [pattern, 'mutating' as const]))

/** The argument fields of a shell call that decide what it does. */
const SHELL_IDENTITY = ['command', 'workdir', 'run_in_background', ...SANDBOX]

/**
 * Policies for the stock tools. Fields left out of `identity` change nothing about what a call does: `description`
 * and `justification` are display or approval text, `timeoutMs` / `timeout_ms` / `wait` only bound how long a call
 * may take.
 */
export const STOCK_TOOL_POLICIES: ToolPolicies = Object.freeze({
  'bash': { class: 'default', identity: SHELL_IDENTITY, byArgument: { command: SHELL_CHANGES } },
  'pwsh': { class: 'default', identity: SHELL_IDENTITY, byArgument: { command: SHELL_CHANGES } },
  'write': { class: 'mutating', identity: ['file_path', 'content', ...SANDBOX] },
  'edit': { class: 'mutating', identity: ['file_path', 'old_string', 'new_string', 'replace_all', ...SANDBOX] },
  'str_replace_editor': { class: 'mutating', byArgument: { command: { view: 'read' } } },
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
