/**
 * dsh-brake: stops DSH agents from spinning.
 *
 * The package's face: the plugin's name, config schema and `apply` (src/dsh/plugin.ts), and the types a listener of
 * its events needs. `./dsh/` is the only place that knows DSH; `./core/` is pure.
 * @module dsh-brake
 */
import type { CycleFinding, IdenticalCallsFinding, RunawayFinding, SameErrorFinding, SameGroundFinding, SameResponseFinding } from './core/kinds.js'

export { apply, Config, name } from './dsh/plugin.js'
export type { Mode } from './config/keys.js'
export type { StopCause } from './core/stops.js'
// Every finding type a listener of the events may meet, by the kind its `kind` names.
export type {
  Finding, LoopFinding, LoopKind, IdenticalCallsFinding, CycleFinding, SameGroundFinding, SameErrorFinding, DuplicateTextFinding,
  DuplicateBlock, SameResponseFinding, RunawayFinding, EditRevertFinding, SameFailureFinding, NearDuplicateFinding, NoNews,
  RereadingFinding,
} from './core/kinds.js'
// The typed Cordis events other plugins can listen to: 'dsh-brake/notice', 'dsh-brake/refusal', 'dsh-brake/stop',
// 'dsh-brake/cut'.
export type { BrakeCall, BrakeCutEvent, BrakeNoticeEvent, BrakeRefusalEvent, BrakeStopEvent } from './dsh/events.js'

// The finding types' names before the loop kinds were named as a user reads them (CHANGELOG), kept for one release so
// that a listener's imports still resolve. Their `kind` values changed with them: a comparison with an old value is a
// type error, which points at each place to change.
/** @deprecated Renamed `IdenticalCallsFinding` (kind `identical-calls`, was `repeated-call`). */
export type RepeatedCallFinding = IdenticalCallsFinding
/** @deprecated Renamed `CycleFinding` (kind `cycle`, was `sequence`). */
export type SequenceFinding = CycleFinding
/** @deprecated Renamed `SameGroundFinding` (kind `same-ground`, was `revisit`). */
export type RevisitFinding = SameGroundFinding
/** @deprecated Renamed `SameErrorFinding` (kind `same-error`, was `repeated-error`). */
export type RepeatedErrorFinding = SameErrorFinding
/** @deprecated Renamed `SameResponseFinding` (kind `same-response`, was `repeated-response`). */
export type RepeatedResponseFinding = SameResponseFinding
/** @deprecated Renamed `RunawayFinding` (kind `runaway`, was `cut`). */
export type CutFinding = RunawayFinding
