/**
 * Edits that undo each other: an edit that brings a file back to a state it had with nothing tried in between
 * (`redo`), or a failure that edits at its place made go away coming back again (`back`). Each edit is progress to the
 * other detectors, so an agent breaking and mending one file the same way looks busy to them. Never refused.
 * Design: docs/design.md#edits-that-undo-each-other
 * @module dsh-brake/core/detectors/edit-revert
 */
import { remember, touch } from '../tables/bounded-map.js'
import { canonicalJson } from '../identity/canonical.js'
import { EditLog } from '../evidence/edit-log.js'
import { sameFile, type Failure } from '../evidence/failures.js'
import { createFileStates, MAX_FILES, ORIGINAL, type FileStates, type Visit } from '../evidence/file-states.js'
import type { CallObservation, CallStep } from '../types.js'
import type { EditRevertFinding, Evidence } from '../kinds.js'
import { isDue, type Detector, type Schedule } from './detector.js'

/** Options of the edit-revert detector. */
export interface EditRevertOptions {
  /** When a failure back is told: `first` runs failing at that place (the first included), then every `every` more. */
  readonly schedule: Schedule
  /** Checks whose recent outcomes are remembered. */
  readonly maxTracked: number
}

/** The calls within which a failure must come back (from its first run to the latest) to count. */
export const SPAN = 15
/** Outcomes remembered per check: its latest, each different from the one before. */
export const OUTCOMES = 8
/** States entered since the latest check that wait for its outcome. */
export const ENTERED = 16
/** Edits remembered, latest last, to tell which files were touched between two runs of a check. */
export const EDITS_KEPT = 64
/** The outcome of a check that passed, as a state's outcome. */
const PASSED = -1

interface Outcome {
  /** The failure's place, or the result's fingerprint for a check that passed. */
  readonly value: number
  readonly failed: boolean
  /** The first and the latest call of the check's runs in a row with this outcome. */
  readonly first: number
  at: number
}

interface Check {
  outcomes: Outcome[]
  /** The place last told as back, and the runs counted then. */
  toldPlace: number
  toldCount: number
  /**
   * The check's runs, and its run at the latest notice of either evidence (0: none): the loop is told again only
   * `every` runs on, whichever evidence it shows then (versions written by turns show both, lap after lap).
   */
  runs: number
  toldRun: number
}

/**
 * A check's entry, as a class: its objects keep one shape when `toldPlace` first holds a fingerprint, where each object
 * of a literal was reshaped on its first use after that (nearly every check is a new one).
 */
class CheckEntry implements Check {
  outcomes: Outcome[] = []
  toldPlace = -1
  toldCount = 0
  runs = 0
  toldRun = 0
}

// Made where needed rather than as closures in `observe`, which runs on every call.
const newCheck = (): Check => new CheckEntry()

/**
 * The checks remembered, the least recently run forgotten first. The latest is held apart too: a check run again with
 * no other between is the most recently run already, and moving it in the map would cost a delete and a set.
 */
class Checks {
  readonly map = new Map<number, Check>()
  private readonly limit: number
  private latestKey = -1
  private latest: Check | undefined

  constructor(limit: number) {
    this.limit = limit
  }

  /** The entry of the check `key`, now the most recently run (made for a check not remembered). */
  run(key: number): Check {
    if (key !== this.latestKey) {
      this.latest = touch(this.map, key, this.limit, newCheck)
      this.latestKey = key
    }
    return this.latest!
  }

  clear(): void {
    this.map.clear()
    this.latestKey = -1
    this.latest = undefined
  }
}

/** The evidence that the check `call` failed as before: `count` runs, told by `evidence` (about `file` for a redo). */
function told(call: CallObservation, failure: Failure, evidence: EditRevertFinding['evidence'], file: string, count: number): Evidence<EditRevertFinding> {
  return {
    finding: { kind: 'edit-revert', evidence, tool: call.tool, args: canonicalJson(call.args) ?? 'null', file, count, failure: failure.line },
    calls: [call.key],
  }
}

/** Create an edit-revert detector. */
export function createEditRevertDetector(options: EditRevertOptions): Detector<CallStep, Evidence<EditRevertFinding>> {
  const files = createFileStates()
  const checks = new Checks(options.maxTracked)
  let observed = 0
  let lastCheckAt = 0
  // States files entered since the latest check: its outcome becomes theirs.
  const entered: Visit[] = []
  // A file redone: the state's earlier visit, waiting for the next check.
  let redone: { readonly file: string; readonly before: Visit } | undefined
  // The call each file was last put back to its original state at (a checkout, every change undone).
  const originalAt = new Map<string, number>()
  // The latest edits: the call each was made in and the file it named.
  const edits = new EditLog(EDITS_KEPT)

  function moved(file: string, visit: Visit, before: Visit | undefined): void {
    if (entered.length < ENTERED) entered.push(visit)
    if (visit.state === ORIGINAL) {
      originalAt.delete(file)
      remember(originalAt, file, observed, MAX_FILES)
    }
    if (before === undefined || before.outcome === undefined || before.outcome === PASSED || visit.state === ORIGINAL) return
    // Back in a version that failed: the edit undone made again (from where it was made, or by the same edit) with
    // nothing tried in between, where an untested edit taken back returns from elsewhere and is no redo; or made again
    // by the very edit that made it first, by turns with other versions, each tried, none of them the original (a
    // version tried again after a revert is a fresh start, as a deleted debug line is no re-made edit).
    const again = visit.from === before.from || visit.by === before.by
    const toggled = before.by === visit.by && (originalAt.get(file) ?? 0) < before.leftAt
    if ((lastCheckAt < before.leftAt && again) || toggled) redone = { file, before }
  }

  return {
    observe(step) {
      const { call } = step
      const at = ++observed
      if (call.refused) return undefined
      if (call.kind === 'mutating') {
        if (call.failed && !call.changeStands) return undefined
        for (const change of call.edits) {
          edits.add(at, change.file)
          files.apply(change, at, moved)
        }
        return undefined
      }
      if (call.kind !== 'default') return undefined
      lastCheckAt = at
      const failure = call.failure
      if (entered.length > 0) {
        for (const visit of entered) visit.outcome ??= failure?.same ?? PASSED
        // Emptied in place (only this detector holds it), and only when it holds some: most checks follow no edit.
        entered.length = 0
      }
      const wasRedone = redone
      redone = undefined
      const check = checks.run(call.key)
      check.runs++
      const quiet = check.toldRun !== 0 && check.runs - check.toldRun < options.schedule.every
      // Told when the file is still in the version made again (no later edit moved it on) and fails as it did there.
      if (failure !== undefined && wasRedone !== undefined && wasRedone.before.outcome === failure.same
        && files.current(wasRedone.file)?.state === wasRedone.before.state && !quiet) {
        check.toldRun = check.runs
        return told(call, failure, 'redo', wasRedone.file, 2)
      }
      const value = failure?.place ?? call.result.raw
      const last = check.outcomes.at(-1)
      if (last !== undefined && last.value === value) {
        last.at = at
        return undefined
      }
      check.outcomes.push({ value, failed: failure !== undefined, first: at, at })
      if (check.outcomes.length > OUTCOMES) check.outcomes.shift()
      if (failure === undefined) return undefined
      const runs = comeBack(check.outcomes, at, failure.files, edits)
      if (quiet || !isDue(options.schedule, runs, check.toldPlace === value ? check.toldCount : 0)) return undefined
      check.toldPlace = value
      check.toldCount = runs
      check.toldRun = check.runs
      return told(call, failure, 'back', '', runs)
    },
    reset() {
      files.clear()
      originalAt.clear()
      checks.clear()
      entered.length = 0
      redone = undefined
      lastCheckAt = 0
      edits.clear()
    },
    size: () => ({ ...sizeOf(files, checks.map), editsKept: edits.size, statesEntered: entered.length }),
  }
}

// Helpers of the module rather than closures: functions of the module are made once, closures for every agent.

/** How many entries the file states and the checks hold now, and the most any one of them holds. */
function sizeOf(files: FileStates, checks: ReadonlyMap<number, Check>): Record<string, number> {
  let outcomes = 0
  for (const check of checks.values()) outcomes = Math.max(outcomes, check.outcomes.length)
  const { visits, changes } = files.largest()
  return { fileStates: files.size, checkOutcomes: checks.size, outcomesPerCheck: outcomes, visitsPerFile: visits, changesPerFile: changes }
}

/**
 * Whether an edit made after call `from` and before call `until` touched a file in `files`, of the latest edits.
 */
function touchedBetween(edits: EditLog, from: number, until: number, files: readonly string[]): boolean {
  for (let slot = 0; slot < edits.size; slot++) {
    const at = edits.ats[slot]!
    if (at > from && at < until && files.some(file => sameFile(edits.files[slot]!, file))) return true
  }
  return false
}

/**
 * The runs failing like the latest, the latest included, in the span, going back while an edit between each two
 * touched a file in `files` (of the latest edits, as `touchedBetween` reads them): the edits there made the failure go
 * away, and come back.
 */
function comeBack(outcomes: readonly Outcome[], at: number, files: readonly string[], edits: EditLog): number {
  const latest = outcomes.at(-1)!
  let runs = 1
  let after = latest.first
  for (let back = outcomes.length - 2; back >= 0; back--) {
    const outcome = outcomes[back]!
    if (at - outcome.at > SPAN) break
    if (outcome.value !== latest.value || !outcome.failed) continue
    if (!touchedBetween(edits, outcome.at, after, files)) break
    runs++
    after = outcome.first
  }
  return runs
}
