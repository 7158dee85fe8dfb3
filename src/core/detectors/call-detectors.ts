/**
 * The call detectors, in one list: an agent's state makes one of each and feeds every call to them in this order, so
 * adding one is adding its entry (and its options, which the compiler then asks of the config). The order is the one
 * their evidence reaches the voice in; the voice ranks it by each kind's strength (kinds.ts).
 * @module dsh-brake/core/detectors/call-detectors
 */
import type { Evidence, LoopKind } from '../kinds.js'
import type { CallStep } from '../types.js'
import { createCycleDetector } from './cycle.js'
import type { Detector } from './detector.js'
import { createEditRevertDetector } from './edit-revert.js'
import { createIdenticalCallsDetector } from './identical-calls.js'
import { createNearDuplicateDetector } from './near-duplicate.js'
import { createRereadingDetector } from './rereading.js'
import { createSameErrorDetector } from './same-error.js'
import { createSameFailureDetector } from './same-failure.js'
import { createSameGroundDetector } from './same-ground.js'

/** A detector of calls, as the state holds it. */
export type CallDetector = Detector<CallStep, Evidence>

/** One entry of the list: the kind its detector finds, the name a fault of it is logged under, and how it is made. */
export interface CallDetectorEntry<K extends LoopKind = LoopKind, O = never, D extends CallDetector = CallDetector> {
  readonly kind: K
  /**
   * The name a fault of the detector is logged under (`the sequences detector`): the names it had before kinds had
   * ids, kept because logs are read by people and their searches.
   */
  readonly loggedAs: string
  readonly create: (options: O) => D
}

function entry<K extends LoopKind, O, D extends CallDetector>(
  kind: K, loggedAs: string, create: (options: O) => D,
): CallDetectorEntry<K, O, D> {
  return Object.freeze({ kind, loggedAs, create })
}

/**
 * Every call detector. The identical-calls detector comes first: the state asks it, beyond its findings, how long a
 * call's chain is (for deny mode), and makes it as the list's first (a list that begins otherwise does not compile
 * there). The last two look across the epochs the others start over at: progress that was not real.
 */
export const CALL_DETECTORS = Object.freeze([
  entry('identical-calls', 'identical-calls', createIdenticalCallsDetector),
  entry('same-error', 'error-repeats', createSameErrorDetector),
  entry('cycle', 'sequences', createCycleDetector),
  entry('same-ground', 'revisits', createSameGroundDetector),
  entry('near-duplicate', 'near-duplicates', createNearDuplicateDetector),
  entry('rereading', 'rereading', createRereadingDetector),
  entry('edit-revert', 'edit-revert', createEditRevertDetector),
  entry('same-failure', 'same-failure', createSameFailureDetector),
] as const)

type Entries = typeof CALL_DETECTORS

/** The kinds a call detector finds. */
export type CallKind = Entries[number]['kind']

/** The options of every call detector, by the kind it finds. */
export type CallDetectorOptions = { readonly [E in Entries[number] as E['kind']]: Parameters<E['create']>[0] }

/** One detector of each entry, made with the options of its kind. */
export function createCallDetectors(options: CallDetectorOptions, entries: readonly CallDetectorEntry<CallKind>[]): CallDetector[] {
  // Each entry takes the options of its own kind: the list's type pairs them, which a loop over it cannot show.
  return entries.map(({ kind, create }) => (create as (options: CallDetectorOptions[CallKind]) => CallDetector)(options[kind]))
}
