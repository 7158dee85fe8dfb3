/**
 * The same outcome after every attempt: runs that end the same way, each a new attempt (after edits that left what the
 * outcome points to alone, or as another command), where a person sees no news. Edits are progress, so the other
 * detectors start over at each one; this one looks across them, since the attempts keep missing the cause. Never
 * refused: a change each time is real work, however little it achieves.
 *
 * An outcome is what a person reads a run's end as, whatever command or wrapper ran it:
 * - **a failure** (failures.ts): the exception it ends in and where, else its whole output; a failure that printed
 *   nothing by how it ended (a hang with no output is one outcome, under `timeout 30`, `nohup` or none);
 * - **an output**, for a check that did not fail: only the same check's (one command) unchanged output counts, as a
 *   success printed by two commands says nothing of a loop.
 *
 * A run goes on a chain of runs that ended the same way when, since the chain's latest run, the agent made a change or
 * ran another command (a plain re-run of the same command with nothing changed but debug prints neither counts nor
 * breaks: a repeat of one call is the identical-call detector's), within {@link MAX_GAP} calls or with no other run
 * between (the agent went reading and editing, then ran it again), and no change was aimed
 * at the outcome:
 * none touched a file the outcome points to (the file an exception was raised in; the files a failure's output names
 * near its end) or, for an outcome that points to no file, a file both runs' commands name (the experiment's own
 * input, such as the environment file `conda env create -f env.yml` reads). A debug print put in or taken out is no
 * attempt (file-edits.ts tells them): it watches the code, it does not change it; nor is a page of documentation
 * edited, or a log the run writes its output into. Runs of other commands in between,
 * ending otherwise, neither count nor break it: a person weighing one outcome looks past the others; the same command
 * passing (or printing nothing, not failing) breaks it, while ending another way does not (an outcome the edits bring
 * back is no news either). A new script written and run is a new command: writing it is no change aimed at the
 * failure. A change the brake cannot place (a patch, an install) is taken as aimed at an outcome that points to files
 * (it may have touched them), and at none that points nowhere (a hang with no output after an install is the install's
 * outcome too); it is no attempt at changing one check's output. Runs from more than one command need
 * `acrossCommands` before the first notice: another wrapper or flag is a quicker try than an edit; an exception raised
 * at one place, with files changed between the runs, is told at the same count from several commands as from one (new
 * scripts dying alike at one line of a library: the scripts are not what fails). A failure worded in a line of an
 * output that did not fail counts across commands only.
 * Design: docs/design.md#the-same-failure-after-every-fix
 * @module dsh-brake/core/detectors/same-failure
 */
import { remember } from '../tables/bounded-map.js'
import { canonicalJson } from '../identity/canonical.js'
import { ANY_FILE, type FileEdit } from '../evidence/file-edits.js'
import { EditLog } from '../evidence/edit-log.js'
import { sameFile, type Failure } from '../evidence/failures.js'
import type { CallObservation, CallStep } from '../types.js'
import type { Evidence, SameFailureFinding } from '../kinds.js'
import { isDue, type Detector, type Schedule } from './detector.js'

/** Thresholds of the same-failure detector. */
export interface SameFailureOptions {
  /** When notices fall: `first` is the runs that end the same way, each a new attempt. */
  readonly schedule: Schedule
  /** Outcomes whose chains are remembered. */
  readonly maxTracked: number
  /**
   * Runs a chain needs before its first notice when they came from more than one command: another wrapper or flag is a
   * quicker try than an edit, and a person lets a few go by (three pytest spellings that fail alike, then a look
   * elsewhere, is work).
   */
  readonly acrossCommands: number
}

/** Calls from one run of a chain to the next, at most, for the two to be one chain. */
export const MAX_GAP = 10
/** Edits remembered (the latest), to tell which files were changed between two runs of a chain. */
export const EDITS_KEPT = 64
/** Files edited meanwhile that a notice names. */
export const NAMED_EDITS = 3
/** Different commands a chain remembers, to count them. */
export const COMMANDS = 8

interface Chain {
  /** The latest run's check (key) and call; the runs in the chain and at its latest notice (0 before). */
  key: number
  at: number
  n: number
  noticed: number
  /** The outcome's line, the file it was raised in, the files it points to, and its traceback's callers. */
  line: string
  origin: string
  files: readonly string[]
  callers: readonly string[]
  /** The latest run's inputs (the files its command names). */
  inputs: readonly string[]
  /** Different commands of the chain's runs (their keys, the latest few). */
  commands: number[]
  /** Files edited between the runs, latest first, at most {@link NAMED_EDITS}. */
  edited: string[]
  failure: boolean
  /** Whether an attempt the brake can place (no debug print, documentation or log) came between two of its runs. */
  touched: boolean
}

/** Create a same-failure detector. */
export function createSameFailureDetector(options: SameFailureOptions): Detector<CallStep, Evidence<SameFailureFinding>> {
  return new SameFailureDetector(options)
}

/** One agent's same-failure detector. A class, so that its methods are made once rather than for every agent. */
class SameFailureDetector implements Detector<CallStep, Evidence<SameFailureFinding>> {
  private readonly options: SameFailureOptions
  private readonly chains = new Map<number, Chain>()
  private observed = 0
  // The latest edits, each marked with what it was to a failure ({@link editClass}).
  private readonly edits = new EditLog(EDITS_KEPT)
  // The call of the latest run (of any check) before the one being judged.
  private lastCheck = 0

  constructor(options: SameFailureOptions) {
    this.options = options
  }

  observe({ call }: CallStep): Evidence<SameFailureFinding> | undefined {
    const at = ++this.observed
    if (call.refused) return undefined
    if (call.kind === 'mutating') {
      if (call.failed && !call.changeStands) return undefined
      this.noteEdits(call, at)
    }
    // A check: the adapter read an outcome from it (a failure, or what it showed, and a failure it worded).
    const failure = call.failure?.loose === true ? undefined : call.failure
    const shown = failure === undefined ? call.shown : undefined
    if (failure === undefined && shown === undefined) return undefined
    // The same check passing breaks the chains its earlier runs were on: what failed was mended. Ending another way
    // does not: an outcome the edits bring back is no news either (the wrong 9/2, another output, 9/2 again).
    if (shown?.passed === true) {
      for (const [other, chain] of this.chains) if (chain.key === call.key) this.chains.delete(other)
      this.lastCheck = at
      return undefined
    }
    const edits = this.edits
    // A check's unchanged output is its own; a failure is the same whatever ran it.
    const told = failure !== undefined
      ? this.extend(failure.same, call, at, edits, failure)
      : this.extend(mix(shown!.same, call.key), call, at, edits, undefined, shown!.line)
    // A failure worded in a line of an output that did not fail (a simulator's trap, `Unknown command`), whatever
    // noise came before it: counted across commands only, as one check's output is compared whole.
    const worded = call.worded === undefined ? undefined : this.extend(call.worded.same, call, at, edits, call.worded)
    this.lastCheck = at
    return told ?? worded
  }

  reset(): void {
    this.chains.clear()
    this.lastCheck = 0
    this.edits.clear()
  }

  size(): Readonly<Record<string, number>> {
    let commands = 0
    let files = 0
    for (const chain of this.chains.values()) {
      commands = Math.max(commands, chain.commands.length)
      files = Math.max(files, chain.edited.length)
    }
    return {
      failingChecks: this.chains.size, outcomeEdits: this.edits.size, commandsPerChain: commands, filesPerChain: files,
    }
  }

  /** Remember the edits of call `at`, the oldest falling off. */
  private noteEdits(call: CallObservation, at: number): void {
    for (const edit of call.edits) this.edits.add(at, edit.file, editClass(edit))
  }

  /**
   * Put the run `call` (call number `at`) on the chain of `outcome`: a failure, or (without one) an output showing
   * `line`. What to tell, when the chain is due.
   */
  private extend(
    outcome: number, call: CallObservation, at: number, edits: EditLog, failure: Failure | undefined, line = '',
  ): Evidence<SameFailureFinding> | undefined {
    const before = this.chains.get(outcome)
    // The same command's own edits (a log it appends to, the script it writes and runs) are the same as last time: only
    // the calls between can have changed anything.
    if (before !== undefined && before.key === call.key && !changedBetween(edits, before.at, at - 1, failure === undefined)) {
      // Run again with no change but debug prints: neither a new attempt nor a break.
      before.at = at
      return undefined
    }
    const chain = this.chainFor(before, call, at, edits, failure, line)
    // Either way the chain becomes the most recently seen.
    this.chains.delete(outcome)
    remember(this.chains, outcome, chain, this.options.maxTracked)
    chain.key = call.key
    chain.at = at
    chain.inputs = call.inputs ?? []
    if (!chain.commands.includes(call.key)) {
      chain.commands.push(call.key)
      if (chain.commands.length > COMMANDS) chain.commands.shift()
    }
    if (failure?.worded === true && chain.commands.length < 2) return undefined
    // From several commands, an exception raised at one place is as strong as one check's when changes came between
    // (new scripts dying at one line of a library: the scripts are not what fails). Any other outcome (a hang, an
    // output, a worded failure), or one script run under other flags with nothing changed, needs `acrossCommands`.
    const quick = chain.origin !== '' && chain.touched
    const schedule = chain.commands.length > 1 && !quick
      ? { ...this.options.schedule, first: Math.max(this.options.schedule.first, this.options.acrossCommands) }
      : this.options.schedule
    if (!isDue(schedule, chain.n, chain.noticed)) return undefined
    chain.noticed = chain.n
    return { finding: findingOf(call, chain), calls: [...chain.commands] }
  }

  /** The chain the run goes on: `before`, extended, when it is close enough and no edit was aimed at it; else a new one. */
  private chainFor(
    before: Chain | undefined, call: CallObservation, at: number, edits: EditLog, failure: Failure | undefined, line: string,
  ): Chain {
    const inputs = call.inputs ?? []
    // Where the outcome points: the file an exception was raised in; else the files the output names and the files
    // both runs' commands name (the experiment's input).
    const files = failure !== undefined && failure.origin !== '' ? failure.files : [...failure?.files ?? [], ...shared(inputs, before?.inputs ?? [])]
    // Close enough: within MAX_GAP calls, or with no other run between (the agent read and edited, then ran it again).
    const near = before !== undefined && (at - before.at <= MAX_GAP || before.at === this.lastCheck)
    if (before !== undefined && near && !aimed(edits, before.at, at, files)) {
      before.n++
      before.edited = latestEdited(editedBetween(edits, before.at, at), before.edited)
      before.touched ||= changedBetween(edits, before.at, at, true)
      return before
    }
    return {
      key: call.key, at, n: 1, noticed: 0, line: failure?.line ?? line, origin: failure?.origin ?? '', files, callers: failure?.callers ?? [],
      inputs, commands: [], edited: [], failure: failure !== undefined, touched: false,
    }
  }
}

function findingOf(call: CallObservation, chain: Chain): SameFailureFinding {
  return {
    kind: 'same-failure', tool: call.tool, args: canonicalJson(call.args) ?? 'null', count: chain.n, failure: chain.line,
    origin: chain.origin, script: scriptOf(chain), edited: chain.edited, evidence: chain.failure ? 'failure' : 'output',
    commands: chain.commands.length,
  }
}

/**
 * The script the check runs, when the failure is raised elsewhere but passes through it and the edits went elsewhere
 * too: a file the command names that the traceback names as a caller, other than the file it was raised in, and not
 * one the agent was editing. The script is what calls into the library the failure comes from, and often what is wrong
 * (a table it never created, a name that clashes); when the agent was rewriting the script itself, it is not.
 */
function scriptOf(chain: Chain): string {
  if (chain.origin === '') return ''
  const { origin, callers, edited } = chain
  return chain.inputs.find(input => !sameFile(input, origin) && callers.some(file => sameFile(file, input))
    && !edited.some(file => sameFile(file, input))) ?? ''
}

// Helpers of the module rather than closures: functions of the module are made once, closures for every agent.

/**
 * What an edit is to a failure: an attempt at it; a debug print (it watches the code, it does not change it); a page of
 * documentation (no run executes it, though a doctest's failure may point to it); a run's own log (its output, kept).
 * Only an attempt makes a run a new try; a debug print and a log are never aimed at what fails.
 */
const ATTEMPT = 0
const DEBUG_PRINT = 1
const DOCUMENTATION = 2
const RUN_LOG = 3

/** A page of documentation: `README.md`, `docs/x.rst`, `CHANGES`, `NEWS.txt` (the names as projects write them). */
const DOCUMENTATION_PAGE = /\.(?:md|markdown|rst|adoc)$|(?:^|\/)(?:CHANGES|CHANGELOG|NEWS|AUTHORS|README|HISTORY)(?:\.txt)?$/

function editClass(edit: FileEdit): number {
  if ('probe' in edit) return DEBUG_PRINT
  if (edit.kind === 'other' && edit.log === true) return RUN_LOG
  return DOCUMENTATION_PAGE.test(edit.file) ? DOCUMENTATION : ATTEMPT
}

/** One number for a check's output and the check: the same output of another check is another outcome. */
function mix(shown: number, key: number): number {
  return (shown * 31 + key) % Number.MAX_SAFE_INTEGER
}

/** The files both runs' commands name. */
function shared(inputs: readonly string[], earlier: readonly string[]): string[] {
  return inputs.filter(file => earlier.some(other => sameFile(file, other)))
}


/**
 * Whether an attempt (no debug print, documentation or log) was made after call `from`, up to call `until` (an edit made by the run's own
 * call comes before its run); with `placed`, only one the brake can place (a file it names): a commit, an install or a
 * patch is no attempt at changing what one check shows.
 */
function changedBetween(edits: EditLog, from: number, until: number, placed: boolean): boolean {
  for (let slot = 0; slot < edits.size; slot++) {
    const at = edits.ats[slot]!
    if (at > from && at <= until && edits.marks[slot] === ATTEMPT && (!placed || edits.files[slot] !== ANY_FILE)) return true
  }
  return false
}

/**
 * Whether an edit other than a debug print or a log, made after call `from` up to call `until`, touched a file in `files`, or may
 * have (a change the brake cannot place: a patch may touch any of them). An outcome that points to no file cannot be
 * aimed at by place: a hang with no output after an install is that install's outcome too.
 */
function aimed(edits: EditLog, from: number, until: number, files: readonly string[]): boolean {
  if (files.length === 0) return false
  for (let slot = 0; slot < edits.size; slot++) {
    const at = edits.ats[slot]!
    const file = edits.files[slot]!
    if (at <= from || at > until || edits.marks[slot] === DEBUG_PRINT || edits.marks[slot] === RUN_LOG) continue
    if (file === ANY_FILE || files.some(named => sameFile(file, named))) return true
  }
  return false
}

/**
 * The files edited after call `from` up to call `until`, oldest first, each once (a change the brake cannot place left
 * out, and a run's log).
 */
function editedBetween(edits: EditLog, from: number, until: number): string[] {
  const files: string[] = []
  for (let back = edits.size; back >= 1; back--) {
    const slot = edits.slotBack(back)
    const at = edits.ats[slot]!
    const file = edits.files[slot]!
    if (edits.marks[slot] === RUN_LOG) continue
    if (at > from && at <= until && file !== ANY_FILE && !files.includes(file)) files.push(file)
  }
  return files
}

/** The files a notice names: those `changed` now, latest first, then those edited before, at most {@link NAMED_EDITS}. */
function latestEdited(changed: readonly string[], before: readonly string[]): string[] {
  return [...[...changed].reverse(), ...before.filter(file => !changed.includes(file))].slice(0, NAMED_EDITS)
}
