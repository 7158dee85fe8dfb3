/**
 * dsh-brake: stops DSH agents from spinning.
 *
 * The Cordis face of the plugin: its name, its config schema, and an `apply` that checks the config and mounts the
 * brake. `./dsh/` is the only place that knows DSH; `./core/` is pure.
 * @module dsh-brake
 */
import type { Context } from '@deepseek-ai/cordis'
import { Config } from './config/schema.js'
import { resolveOptions } from './config/resolve.js'
import { mountBrake } from './dsh/mount.js'

export { Config }
export type { Mode } from './config/keys.js'
export type { StopCause } from './core/stops.js'
export type {
  DuplicateTextFinding, Finding, RepeatedCallFinding, RepeatedErrorFinding, RevisitFinding, SequenceFinding,
} from './core/types.js'
// The typed Cordis events other plugins can listen to: 'dsh-brake/notice', 'dsh-brake/refusal', 'dsh-brake/stop'.
export type { BrakeCall, BrakeNoticeEvent, BrakeRefusalEvent, BrakeStopEvent } from './dsh/events.js'

/** The plugin name, also its bundle row id and the `source.plugin` of every notice. */
export const name = 'dsh-brake'

/**
 * Mount the brake.
 * @param ctx - the plugin context; listeners and the guard are registered on it and go away with it.
 * @param config - the validated config (Cordis fills the defaults); rules beyond types are checked here, loudly.
 */
export function apply(ctx: Context, config: Config): void {
  mountBrake(ctx, name, resolveOptions(config))
}
