/**
 * Tool policies: how each tool's calls are judged. One declarative map from tool-name pattern to a class (and
 * optionally the argument fields that make up a call's identity). The host's adapter brings the defaults for the tools
 * it knows; the user's entries are consulted before them, and the first pattern that matches a tool name wins.
 * @module dsh-brake/core/identity/policies
 */
import type { EditFields } from '../evidence/file-edits.js'
import { compilePatterns } from './patterns.js'
import type { ToolClass } from '../types.js'

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
  /**
   * The argument holding a shell command line, for a shell tool: a call whose command changes files (a redirect into
   * a file, `tee`, or a file-changing command such as `sed -i`) is `mutating`.
   */
  readonly shellCommand?: string
  /**
   * For a file tool: the arguments naming the file it changes and the text it writes or replaces, so that the brake
   * can tell which file an edit aimed at and when a file comes back to a state it had. Without them an edit changes
   * files unseen.
   */
  readonly edits?: EditFields
}

const FALLBACK: ToolPolicy = Object.freeze({ class: 'default' })

/** Tool-name pattern → policy. */
export type ToolPolicies = Readonly<Record<string, ToolPolicy>>

/** Resolve tool names to policies: the user's patterns first, then the host's defaults, then `default`. */
export function createPolicyResolver(user: ToolPolicies, defaults: ToolPolicies): (tool: string) => ToolPolicy {
  const entries = [...Object.entries(user), ...Object.entries(defaults)]
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
 * The class of one call: the class a `byArgument` pattern gives (where patterns of different classes overlap, the
 * class listed first wins), else the policy's.
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

/** A shell tool's command line, as its policy's `shellCommand` names it; undefined for any other tool. */
export function shellCommandOf(policy: ToolPolicy, args: unknown): string | undefined {
  if (policy.shellCommand === undefined || !isRecord(args)) return undefined
  const command = args[policy.shellCommand]
  return typeof command === 'string' ? command : undefined
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
