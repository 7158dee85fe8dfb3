/**
 * Identify a call: the one step that decides whether a call is watched, how it is judged, and what makes it the same
 * call as another. Every mode and every listener goes through it.
 * @module dsh-brake/core/identity/identify
 */
import { argumentsKey, toolSeed } from './canonical.js'
import { createToolFilter, memoizeByName } from './patterns.js'
import { classOf, createPolicyResolver, identityOf, shellCommandOf, type ToolPolicies, type ToolPolicy } from './policies.js'
import { ANY_FILE, NO_EDITS, simpleCommandEdits, toolEdits, type FileEdit } from '../evidence/file-edits.js'
import { commandsOf, createShellReader, type ShellLine } from './shell-command.js'
import type { WatchedClass } from '../types.js'

/** A watched call's class and identity. */
export interface Identity {
  readonly kind: WatchedClass
  /** Fingerprint of the tool name and the identity arguments. */
  readonly key: number
  /** The arguments the key was computed from (the policy's identity fields), for a notice's preview. */
  readonly args: unknown
  /**
   * Whether the call's change stands whatever its failure says: a shell command that changed files before its last
   * command, whose exit code is then that later command's.
   */
  readonly changeStands: boolean
  /** Whether the tool runs shell commands (its policy names a `shellCommand`): its output closes the shell's way. */
  readonly shell: boolean
  /**
   * Whether every change the call makes is a program's output captured into a file (`> run.log`, `| tee run.log`): the
   * call is a run whose record is kept, a check like any other.
   */
  readonly logs: boolean
  /**
   * A shell tool's command line, read once per identification and shared by its readers: what it changed, what it looked
   * up, the files it names (undefined when the call has none).
   */
  readonly line: ShellLine | undefined
  /** For a `mutating` call, the edits it shows; empty for any other. */
  readonly edits: readonly FileEdit[]
}

/** What decides identity. */
export interface IdentifyOptions {
  /** Tool-name patterns to track; empty tracks every tool. */
  readonly include: readonly string[]
  /** Tool-name patterns that are transparent. */
  readonly exclude: readonly string[]
  /** The user's policies, consulted first. */
  readonly policies: ToolPolicies
  /** The host's policies for the tools it knows. */
  readonly defaults: ToolPolicies
  /** Patterns (`*` wildcard) of shell commands that change files: the host's and the user's. */
  readonly fileChangingCommands: readonly string[]
}

/**
 * Create the identify step. It answers `undefined` for a call that is not watched: a tool `include` / `exclude` leave
 * out, a bookkeeping call (both transparent: they neither count nor break a sequence), or arguments too deeply nested
 * to walk.
 */
export function createIdentify(options: IdentifyOptions): (tool: string, args: unknown) => Identity | undefined {
  const tracked = createToolFilter(options.include, options.exclude)
  const policyFor = createPolicyResolver(options.policies, options.defaults)
  const readShell = createShellReader(options.fileChangingCommands)
  // Tool-name lookups run on every call and never change while the plugin runs: once per name, all in one.
  const watched = memoizeByName((tool): WatchedTool | null => tracked(tool) ? { policy: policyFor(tool), seed: toolSeed(tool) } : null)
  return (tool, args) => {
    const known = watched(tool)
    if (known === null) return undefined
    const { policy } = known
    // A shell command line is read once: the reading that tells whether it changes files also tells what it changed,
    // and the call carries it to whoever reads the line next (what it looked up, the files it names).
    const command = shellCommandOf(policy, args)
    const line = command === undefined ? undefined : readShell(command)
    const kind = line === undefined || line.change === 'none' ? classOf(policy, args) : 'mutating'
    if (kind === 'bookkeeping') return undefined
    const identityArgs = identityOf(policy, args)
    const key = argumentsKey(known.seed, identityArgs)
    if (key === undefined) return undefined
    const edits = kind === 'mutating' ? editsOf(policy, args, line) : NO_EDITS
    const logs = edits.length > 0 && edits.every(edit => edit.kind === 'other' && edit.log === true)
    // A log is written before the run it captures, whatever that run's exit: the change stands.
    return { kind, key, args: identityArgs, changeStands: line?.change === 'earlier' || logs, shell: policy.shellCommand !== undefined, logs, line, edits }
  }
}

/** What a watched tool's name decides: its policy, and what it puts into its calls' keys. */
interface WatchedTool {
  readonly policy: ToolPolicy
  readonly seed: number
}

const UNSEEN: readonly FileEdit[] = Object.freeze([{ file: ANY_FILE, kind: 'other' }])

/**
 * The edits of a mutating call: read from its shell command line when that changes files, or from a file tool's
 * arguments as its policy says; a mutating call that shows none changed files unseen.
 */
function editsOf(policy: ToolPolicy, args: unknown, line: ShellLine | undefined): readonly FileEdit[] {
  if (line !== undefined && line.change !== 'none') {
    const edits = simpleCommandEdits(commandsOf(line))
    return edits.length === 0 ? UNSEEN : edits
  }
  return policy.edits === undefined ? UNSEEN : toolEdits(policy.edits, args)
}
