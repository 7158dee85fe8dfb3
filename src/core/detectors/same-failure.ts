/**
 * The same failure after every fix: one check failing exactly as before after each of several edits that never touched
 * what the failure points to. Edits are progress, so the other detectors start over at each one; this one looks across
 * them, since the edits keep missing the cause. Never refused: a change each time is real work, however little it
 * achieves.
 * Design: docs/design.md#the-same-failure-after-every-fix
 * @module dsh-brake/core/detectors/same-failure
 */
import { remember } from '../tables/bounded-map.js'
import { canonicalJson } from '../identity/canonical.js'
import { ANY_FILE } from '../evidence/file-edits.js'
import { sameFile } from '../evidence/failures.js'
import type { CallStep } from '../types.js'
import type { Evidence, SameFailureFinding } from '../kinds.js'
import { isDue, type Detector, type Schedule } from './detector.js'

/** Thresholds of the same-failure detector. */
export interface SameFailureOptions {
  /** When notices fall: `first` is the runs in a row that fail the same way, each after a change. */
  readonly schedule: Schedule
  /** Checks whose chains are remembered. */
  readonly maxTracked: number
}

/** Calls from one run of a check to the next, at most, for the two to be one chain. */
export const MAX_GAP = 10
/** Files edited since the latest check that are remembered; an agent editing more is taken as editing anything. */
export const EDITED_FILES = 16
/** Files edited meanwhile that a notice names. */
export const NAMED_EDITS = 3

interface Chain {
  /** The failure's fingerprint (the same failure), its line, and the files it points to. */
  same: number
  line: string
  origin: string
  files: readonly string[]
  /** Runs in the chain, the epoch and call of the latest, and the runs at the latest notice (0 before the first). */
  n: number
  epoch: number
  at: number
  noticed: number
  /** Files edited between the runs, latest first, at most {@link NAMED_EDITS}. */
  edited: string[]
}

/** Create a same-failure detector. */
export function createSameFailureDetector(options: SameFailureOptions): Detector<CallStep, Evidence<SameFailureFinding>> {
  const chains = new Map<number, Chain>()
  let observed = 0
  // The latest check, and the files changed since it (`unseen`: a change the brake cannot place, or too many).
  let lastCheck: number | undefined
  let edited: string[] = []
  let unseen = false

  return {
    observe(step) {
      const { call, epoch } = step
      const at = ++observed
      if (call.refused) return undefined
      if (call.kind === 'mutating') {
        if (call.failed && !call.changeStands) return undefined
        for (const edit of call.edits) {
          if (edit.file === ANY_FILE || edited.length === EDITED_FILES) unseen = true
          else if (!edited.includes(edit.file)) edited.push(edit.file)
        }
        return undefined
      }
      if (call.kind !== 'default') return undefined
      const previous = lastCheck
      const changed = edited
      const blind = unseen
      lastCheck = call.key
      // A new list only after edits (`changed` keeps the old one for this call): most checks follow none.
      if (edited.length > 0) edited = []
      unseen = false
      // A failure told only by an exception the output went on after is not certain enough to call unchanged.
      const failure = call.failure?.loose === true ? undefined : call.failure
      if (failure === undefined) {
        if (chains.size > 0) chains.delete(call.key)
        return undefined
      }
      const before = chains.get(call.key)
      if (before !== undefined && before.same === failure.same && before.epoch === epoch && previous === call.key) {
        // Run again with no change: neither a round nor a break.
        before.at = at
        return undefined
      }
      const goesOn = before !== undefined && before.same === failure.same && before.epoch !== epoch && previous === call.key &&
        at - before.at <= MAX_GAP && !blind && !aimedAt(changed, failure.files)
      let chain: Chain
      if (goesOn) {
        chain = before
        chain.n++
        chain.edited = latestEdited(changed, chain.edited)
      } else {
        chain = {
          same: failure.same, line: failure.line, origin: failure.origin, files: failure.files, n: 1, epoch, at, noticed: 0, edited: [],
        }
      }
      // Either way the chain becomes the most recently seen.
      chains.delete(call.key)
      remember(chains, call.key, chain, options.maxTracked)
      chain.epoch = epoch
      chain.at = at
      if (!isDue(options.schedule, chain.n, chain.noticed)) return undefined
      chain.noticed = chain.n
      const finding: SameFailureFinding = {
        kind: 'same-failure', tool: call.tool, args: canonicalJson(call.args) ?? 'null', count: chain.n, failure: chain.line,
        origin: chain.origin, edited: chain.edited,
      }
      return { finding, calls: [call.key] }
    },
    reset() {
      chains.clear()
      lastCheck = undefined
      edited = []
      unseen = false
    },
    size: () => ({ failingChecks: chains.size, editsSinceCheck: edited.length }),
  }
}

/** Whether a file in `changed` is one of the files a failure points to. */
function aimedAt(changed: readonly string[], files: readonly string[]): boolean {
  for (const file of changed) if (files.some(named => sameFile(file, named))) return true
  return false
}

/** The files a notice names: those `changed` now, latest first, then those edited before, at most {@link NAMED_EDITS}. */
function latestEdited(changed: readonly string[], before: readonly string[]): string[] {
  return [...[...changed].reverse(), ...before.filter(file => !changed.includes(file))].slice(0, NAMED_EDITS)
}
