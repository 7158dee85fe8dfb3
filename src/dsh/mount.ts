/**
 * Mount a brake on a Cordis context: its listeners and, in deny and stop modes, its guard. Everything is registered through
 * the context, so disposing the plugin (unloading it, a config edit, HMR) removes all of it.
 * @module dsh-brake/dsh/mount
 */
import type { Context } from '@deepseek-ai/cordis'
import type { ResolvedConfig } from '../config/resolve.js'
import { createBrake } from './brake.js'
import { onSessionEvent } from './compaction.js'
import { guardCall } from './guard.js'
import { onPostExecute } from './post-execute.js'
import { onPreStep } from './pre-step.js'
import { onReloadRejected } from './reload.js'
import { onRequest } from './request.js'
import { onStream } from './stream.js'

/** Register the brake's listeners (and guard) on `ctx` as plugin `name`. */
export function mountBrake(ctx: Context, name: string, resolved: ResolvedConfig): void {
  const brake = createBrake(ctx, name, resolved, toTerminal)
  ctx.on('tools/post-execute', (exec, result, next) => onPostExecute(brake, exec, result, next))
  ctx.on('agent/pre-step', (payload, next) => onPreStep(brake, payload, next))
  ctx.on('session/event', (session, event) => onSessionEvent(brake, session, event))
  ctx.on('agent/request', (payload, next) => onRequest(brake, payload, next))
  ctx.on('llm/stream', (options, next) => onStream(brake, options, next))
  // A refused edit of its config is said where a person looks: dsh's terminal, and its log for whoever exports it.
  const logger = ctx.logger(name)
  onReloadRejected(ctx, name, (line) => {
    toTerminal(line)
    logger.error('%s', line.trimEnd())
  })
  // Only deny and stop modes need the tools service; the listeners above run without it.
  if (brake.deny) ctx.inject(['tools'], ctx => void ctx.tools.guard(exec => guardCall(brake, exec)))
}

/**
 * A stop's reason, for the person at the terminal. DSH keeps it in the session log, but its headless runner prints
 * only the model's last words for a turn a hook ended, so the person would be left with an exit code and no why.
 */
function toTerminal(line: string): void {
  if (process.stderr.writable) process.stderr.write(line)
}
