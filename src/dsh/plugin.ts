/**
 * The plugin as DSH's Loader takes it: a name, a config schema, and an `apply` that checks the config and mounts the
 * brake. The package's face (src/index.ts) re-exports these; `dsh-brake analyze` mounts them to replay sessions.
 * @module dsh-brake/dsh/plugin
 */
import type { Context } from '@deepseek-ai/cordis'
import { resolveOptions } from '../config/resolve.js'
import { Config } from '../config/schema.js'
import { mountBrake } from './mount.js'

export { Config }

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
