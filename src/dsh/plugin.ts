/**
 * The plugin as DSH's Loader takes it: a name, a config schema, and an `apply` that checks the config and registers
 * every listener of the brake (and, in deny and stop modes, its guard) on the plugin's context. Everything is
 * registered through that context, so disposing the plugin (unloading it, a config edit, HMR) removes all of it. The
 * package's face (src/index.ts) re-exports these; `dsh-brake analyze` mounts them to replay sessions.
 * @module dsh-brake/dsh/plugin
 */
import type { Context } from '@deepseek-ai/cordis'
import { resolveOptions } from '../config/resolve.js'
import { Config } from '../config/schema.js'
import { createBrake } from './brake.js'
import { onSessionEvent } from './compaction.js'
import { guardCall } from './guard.js'
import { onPostExecute } from './post-execute.js'
import { onPreStep } from './pre-step.js'
import { onReloadRejected, settingsChangeRefusal, settingsRefusal } from './reload.js'
import { onRequest } from './request.js'
import { followSettings } from './settings.js'
import { onStream } from './stream.js'
import { createTelemetryMarking, onTelemetryRecord } from './telemetry.js'

export { Config }

/** The plugin name, also its bundle row id and the `source.plugin` of every notice. */
export const name = 'dsh-brake'

/**
 * Mount the brake: the row's config checked (loudly: a config the brake refuses stops the load), the brake itself,
 * and the settings section that may change its config while it runs.
 * @param ctx - the plugin context; everything is registered under it and goes away with it.
 * @param config - the validated config (Cordis fills the defaults); rules beyond types are checked here, loudly.
 */
export function apply(ctx: Context, config: Config): void {
  resolveOptions(config)
  const logger = ctx.logger(name)
  const tell = (line: string): void => {
    toTerminal(line)
    logger.error('%s', line.trimEnd())
  }
  // A refused edit of its config is said where a person looks: dsh's terminal, and its log for whoever exports it.
  onReloadRejected(ctx, name, tell)
  // The brake runs as a plugin of its own under this one, so that a change of settings restarts it alone, as a
  // config edit restarts the whole plugin: its listeners and guard afresh, and every agent's counts with them.
  let running = ctx.plugin({ name, apply: mountBrake }, config)
  followSettings(ctx, config, (next) => {
    void running.dispose()
    running = ctx.plugin({ name, apply: mountBrake }, next)
  }, {
    atStart: why => tell(settingsRefusal(name, why)),
    whileRunning: why => tell(settingsChangeRefusal(name, why)),
  })
}

/** Register every listener of the brake (and, in deny and stop modes, its guard) on `ctx`, for `config`. */
function mountBrake(ctx: Context, config: Config): void {
  const brake = createBrake(ctx, name, resolveOptions(config), toTerminal)
  ctx.on('tools/post-execute', (exec, result, next) => onPostExecute(brake, exec, result, next))
  ctx.on('agent/pre-step', (payload, next) => onPreStep(brake, payload, next))
  ctx.on('session/event', (session, event) => onSessionEvent(brake, session, event))
  ctx.on('agent/request', (payload, next) => onRequest(brake, payload, next))
  ctx.on('llm/stream', (options, next) => onStream(brake, options, next))
  // Only deny and stop modes need the tools service; the listeners above run without it.
  if (brake.deny) ctx.inject(['tools'], ctx => void ctx.tools.guard(exec => guardCall(brake, exec)))
  // Only where DSH's telemetry seam is mounted (its backend registers `sessionTelemetry`): the brake's records marked.
  ctx.inject(['sessionTelemetry'], (ctx) => {
    const marking = createTelemetryMarking(config.telemetryNoticeSeverity)
    ctx.on('session-telemetry/record', (_record, next) => onTelemetryRecord(brake, marking, next))
  })
}

/**
 * A stop's reason, for the person at the terminal. DSH keeps it in the session log, but its headless runner prints
 * only the model's last words for a turn a hook ended, so the person would be left with an exit code and no why.
 */
function toTerminal(line: string): void {
  if (process.stderr.writable) process.stderr.write(line)
}
