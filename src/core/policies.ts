/**
 * Tool policies: how each tool's calls are judged. One declarative map from tool-name pattern to a class (and
 * optionally the argument fields that make up a call's identity), with defaults for the tools DSH's stock profiles
 * register. The user's entries are consulted first; the first pattern that matches a tool name wins.
 * @module dsh-brake/core/policies
 */
import { compilePatterns } from './patterns.js'
import type { ToolClass } from './types.js'

/** How one tool (or family of tools) is judged. */
export interface ToolPolicy {
  /**
   * `mutating`: a successful call changes the workspace, which is progress. `poller`: identical calls are expected;
   * only unchanged results count, whatever the counting mode, and it is never refused. `read`: reads what is there.
   * `bookkeeping`: transparent, like `exclude`. `default`: anything else (shell commands are judged by their results).
   */
  readonly class: ToolClass
  /**
   * The argument fields that make up a call's identity; other fields (descriptions, timeouts) are ignored. Absent or
   * empty: every argument counts.
   */
  readonly identity?: readonly string[]
  /**
   * A different class when a string argument matches a pattern (`*` wildcard), e.g. `{ command: { view: 'read' } }`
   * or `{ command: { 'git commit*': 'mutating' } }`. Where patterns of different classes overlap, the class listed
   * first wins.
   */
  readonly byArgument?: Readonly<Record<string, Readonly<Record<string, ToolClass>>>>
}

const SANDBOX = ['sandbox_permissions']

/**
 * Shell commands whose job is to change files or the repository. A shell call is not a change by itself (the same
 * failing command run again and again is the commonest loop there is), but these are: when one of them succeeds
 * with arguments not used since the last progress, it is progress, like an `edit`.
 */
const SHELL_CHANGES: Readonly<Record<string, ToolClass>> = Object.fromEntries([
  'git add *', 'git apply*', 'git checkout *', 'git commit*', 'git merge*', 'git mv *', 'git rebase*', 'git reset*',
  'git restore*', 'git rm *', 'git stash*', 'git switch *', 'sed -i*', 'perl -i*', 'perl -pi*', 'patch *', 'mv *',
  'cp *', 'rm *', 'mkdir *', 'touch *', 'npm install*', 'npm i *', 'npm uninstall*', 'pnpm add *', 'pnpm install*',
  'pnpm remove *', 'yarn add *', 'yarn install*', 'pip install *', 'cargo add *', 'go get *',
].map(pattern => [pattern, 'mutating' as const]))

/**
 * Defaults for the tools of DSH's stock profiles (0.1.0-rc.8). Fields left out of `identity` change nothing about
 * what a call does: `description` and `justification` are display or approval text, `timeoutMs` / `timeout_ms` /
 * `wait` only bound how long a call may take.
 */
export const DEFAULT_POLICIES: Readonly<Record<string, ToolPolicy>> = Object.freeze({
  'bash': { class: 'default', identity: ['command', 'workdir', 'run_in_background', ...SANDBOX], byArgument: { command: SHELL_CHANGES } },
  'pwsh': { class: 'default', identity: ['command', 'workdir', 'run_in_background', ...SANDBOX], byArgument: { command: SHELL_CHANGES } },
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

const FALLBACK: ToolPolicy = Object.freeze({ class: 'default' })

/** Resolve tool names to policies: the user's patterns first, then the defaults, then `default`. */
export function createPolicyResolver(user: Readonly<Record<string, ToolPolicy>>): (tool: string) => ToolPolicy {
  const entries = [...Object.entries(user), ...Object.entries(DEFAULT_POLICIES)]
    .map(([pattern, policy]) => ({ matches: compilePatterns([pattern]), policy }))
  return tool => entries.find(entry => entry.matches(tool))?.policy ?? FALLBACK
}

/** Compiled `byArgument` tables, per policy object: per field, one test per class (patterns of a class combined). */
const compiled = new WeakMap<ToolPolicy, { field: string; rules: { matches: (value: string) => boolean; class: ToolClass }[] }[]>()

function rulesOf(policy: ToolPolicy & { byArgument: NonNullable<ToolPolicy['byArgument']> }) {
  let tables = compiled.get(policy)
  if (tables === undefined) {
    tables = Object.entries(policy.byArgument).map(([field, classes]) => {
      // One combined test per class keeps a long list (the shell's file-changing commands) to one regex run.
      const byClass = new Map<ToolClass, string[]>()
      for (const [pattern, kind] of Object.entries(classes)) byClass.set(kind, [...byClass.get(kind) ?? [], pattern])
      return { field, rules: [...byClass].map(([kind, patterns]) => ({ matches: compilePatterns(patterns), class: kind })) }
    })
    compiled.set(policy, tables)
  }
  return tables
}

/**
 * The class of one call: the policy's, unless a string argument matches one of its `byArgument` patterns. Where
 * patterns of different classes overlap, the class listed first wins.
 */
export function classOf(policy: ToolPolicy, args: unknown): ToolClass {
  if (policy.byArgument === undefined || !isRecord(args)) return policy.class
  for (const { field, rules } of rulesOf(policy as Parameters<typeof rulesOf>[0])) {
    const value = args[field]
    if (typeof value !== 'string') continue
    const trimmed = value.trimStart()
    for (const rule of rules) if (rule.matches(trimmed)) return rule.class
  }
  return policy.class
}

/** The part of the arguments that makes up identity: the policy's `identity` fields when the arguments are an object. */
export function identityOf(policy: ToolPolicy, args: unknown): unknown {
  if (policy.identity === undefined || policy.identity.length === 0 || !isRecord(args)) return args
  // Picked in sorted order into a plain object (one without a prototype is a slow dictionary to the engine); a field
  // named `__proto__` is defined rather than assigned, so it stays a plain field.
  const picked: Record<string, unknown> = {}
  for (const field of identityFields(policy.identity)) {
    if (!Object.hasOwn(args, field)) continue
    if (field === '__proto__') Object.defineProperty(picked, field, { value: args[field], enumerable: true, writable: true, configurable: true })
    else picked[field] = args[field]
  }
  return picked
}

const sortedFields = new WeakMap<readonly string[], readonly string[]>()

function identityFields(fields: readonly string[]): readonly string[] {
  let sorted = sortedFields.get(fields)
  if (sorted === undefined) sortedFields.set(fields, sorted = [...fields].sort())
  return sorted
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
