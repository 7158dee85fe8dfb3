/**
 * dsh-brake: stops DSH agents from spinning.
 *
 * The package's face: the plugin's name, config schema and `apply` (src/dsh/plugin.ts), and the types a listener of
 * its events needs. `./dsh/` is the only place that knows DSH; `./core/` is pure.
 * @module dsh-brake
 */
export { apply, Config, name } from './dsh/plugin.js'
export type { Mode } from './config/keys.js'
export type { StopCause } from './core/stops.js'
export type {
  RunawayFinding, DuplicateTextFinding, Finding, LoopFinding, IdenticalCallsFinding, SameErrorFinding, SameResponseFinding,
  SameGroundFinding, CycleFinding,
} from './core/types.js'
// The typed Cordis events other plugins can listen to: 'dsh-brake/notice', 'dsh-brake/refusal', 'dsh-brake/stop',
// 'dsh-brake/cut'.
export type { BrakeCall, BrakeCutEvent, BrakeNoticeEvent, BrakeRefusalEvent, BrakeStopEvent } from './dsh/events.js'
