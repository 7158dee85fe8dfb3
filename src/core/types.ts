/**
 * The plain data that flows into the detectors and out of them.
 *
 * Nothing here knows DSH: the adapter (`src/dsh/`) turns tool executions and claimed messages into observations, and
 * findings into notices or denials. Time is always passed in, never read.
 * @module dsh-brake/core/types
 */
import type { Failure, Shown } from './evidence/failures.js'
import type { FileEdit } from './evidence/file-edits.js'
import type { ResultRef } from './evidence/results.js'

/**
 * How a tool's calls are judged (README, "Tool policies"). `bookkeeping` tools never reach the detectors: like
 * excluded tools, they are transparent.
 */
export type ToolClass = 'default' | 'read' | 'poller' | 'mutating' | 'bookkeeping'

/** A class other than `bookkeeping`: the classes of the calls the detectors see. */
export type WatchedClass = Exclude<ToolClass, 'bookkeeping'>

/** One executed (or refused) tool call of one agent, in call order. */
export interface CallObservation {
  /** Tool name as the model requested it. */
  readonly tool: string
  /**
   * The arguments the identity was computed from (identity fields only), for a notice's preview. Kept only by the
   * same-ground detector, for the calls of a run still going (at most 64), and the near-duplicate detector, for the latest
   * four calls of a stretch still going; both let them go when the run or stretch ends.
   */
  readonly args: unknown
  /** Fingerprint of tool name plus canonical arguments: the call identity. */
  readonly key: number
  /** The tool's class. */
  readonly kind: WatchedClass
  /** The result the call returned (compared raw, and normalized when needed). */
  readonly result: ResultRef
  /** Whether the call failed: an error result, or a shell command that reported a failure. */
  readonly failed: boolean
  /** Whether this plugin's guard refused the call (its result is the refusal, not the tool's). */
  readonly refused: boolean
  /** For a failed call with an error result: the first line of its error as the model saw it; otherwise undefined. */
  readonly errorLine: string | undefined
  /** Whether the error result rejected the model's input (as opposed to the environment failing). */
  readonly inputError: boolean
  /** Whether a change stands whatever the failure says (a shell change before the command's last part). */
  readonly changeStands: boolean
  /**
   * For a check (class `default`), what its output tells of a failure (a failed call, or output ending in an
   * exception); undefined otherwise.
   */
  readonly failure: Failure | undefined
  /**
   * For a check that did not fail, what its output showed (its normalized fingerprint and last line), so that an
   * output unchanged by the edits between two runs can be told; absent otherwise.
   */
  readonly shown?: Shown | undefined
  /**
   * For a check that did not fail and ended in no exception, a failure its output reports in words (its last line
   * among the last that reads as an error), whatever noise is around it; absent otherwise.
   */
  readonly worded?: Failure | undefined
  /**
   * For a check run by a shell command, the files its command line names (operands that look like paths, at most a
   * few): the check's own inputs. An edit of one of them between two runs changed the experiment, not only the code.
   */
  readonly inputs?: readonly string[] | undefined
  /** For a `mutating` call, the edits it shows (`file-edits.ts`); empty for any other call. */
  readonly edits: readonly FileEdit[]
  /** What the call looked for, when it is a lookup (a search, or the opening of a file); absent otherwise. */
  readonly lookup?: Lookup | undefined
  /** The lines of one file the call showed, when it showed a window of them; absent otherwise. */
  readonly window?: FileWindow | undefined
  /** Whether the result says there was nothing to find: a search that matched nothing, a path that does not exist. */
  readonly nothing?: boolean
}

/** What a lookup asked: the patterns or names it looked for, and where. */
export interface Lookup {
  /** The patterns or names looked for (a search's patterns, a file's name); bounded by the adapter. */
  readonly terms: readonly string[]
  /** Where it looked: paths (empty: everywhere the tool looks by default). */
  readonly scope: readonly string[]
}

/** A window of one file: the lines from `first` to `last`, counted from 1. */
export interface FileWindow {
  readonly file: string
  readonly first: number
  readonly last: number
}

/** A call as the detectors see it: what the adapter observed, and what the agent's state knows about it. */
export interface CallStep {
  /** The call as observed. */
  readonly call: CallObservation
  /**
   * The progress epoch the call happened in: it moves on whenever the agent makes progress (a new successful change, a
   * poller that reported news).
   */
  readonly epoch: number
  /**
   * The version of this call identity's result: it changes whenever the result differs from the identity's previous
   * one (compared raw, then normalized), and stays the same on a refused attempt.
   */
  readonly version: number
  /** Whether the identity was called before in the same epoch and its result has not moved since: going over it again. */
  readonly revisit: boolean
  /**
   * The identity's number in the agent's call history, below the history's bound: per-identity state elsewhere is
   * kept by this number, so one table bounds it all.
   */
  readonly slot: number
  /** Whether this call gave the identity its number (first seen, or taking a forgotten identity's place). */
  readonly fresh: boolean
}

/**
 * `T` with its read-only fields writable, for the factory that keeps them up to date. Per-agent objects give such
 * figures as fields rather than getters: V8 builds an object literal with accessors on a slow path (about a microsecond
 * each, and each such object gets a shape of its own, which slows every read of it), and an agent makes many.
 */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] }
