/**
 * The brake's settings section in DSH's settings service (`ctx.settings`, mounted by the stock profiles with the
 * `$DSH_HOME/settings.yaml` document, and written by the web UI's Settings → Plugins card). While a settings service is
 * there, the brake runs with the row's config with the section over it, and a committed change restarts it with the
 * new values (fresh counts, as a config edit does). When the service goes away, the row's config alone runs again;
 * without one nothing here runs at all.
 * Design: docs/design.md#settings-from-the-web-ui
 * @module dsh-brake/dsh/settings
 */
import type { Context } from '@deepseek-ai/cordis'
import type { SettingsNamespace } from '@deepseek-ai/dsh-settings'
import type { Config } from '../config/keys.js'
import { settingsSchema } from '../config/settings-schema.js'
import { SETTINGS_NAMESPACE, settingsOf, withSettings } from '../config/settings.js'

/** Cordis's fiber states while a plugin is going away (its own teardown, not only the settings service's). */
const FIBER_UNLOADING = 5
const FIBER_DISPOSED = 4

/** What the brake says of a settings section it refused. */
export interface SettingsRefusals {
  /** A section already stored when the brake started: the row's config runs instead. */
  readonly atStart: (message: string) => void
  /**
   * A change refused while the brake runs (a save in the web UI, which shows it too, or a hand edit of the document,
   * which DSH would skip without a word): the settings in force stay.
   */
  readonly whileRunning: (message: string) => void
}

/**
 * Keep the brake's config in step with the settings section: `run` is called with the config to run with whenever it
 * changes (at registration when the section changes anything, on each committed change, and with the row's config when
 * the service leaves).
 */
export function followSettings(ctx: Context, config: Readonly<Config>, run: (config: Config) => void, refused: SettingsRefusals): void {
  ctx.inject(['settings'], (scoped) => {
    // A second dsh-brake row (a profile may mount the brake twice) runs with its own row: the section is the first's.
    if (scoped.settings.get(SETTINGS_NAMESPACE as SettingsNamespace) !== undefined) return
    let registered = false
    const schema = settingsSchema(config, (message) => {
      if (registered) refused.whileRunning(message)
    })
    let scope: ReturnType<typeof scoped.settings.register<ReturnType<typeof settingsOf>>>
    try {
      scope = scoped.settings.register(SETTINGS_NAMESPACE as SettingsNamespace, schema, { base: settingsOf(config) })
    } catch (error) {
      // A section already stored that the brake refuses (a hand edit of the document): the row's config runs, and the
      // person is told why, rather than the brake failing to load.
      refused.atStart(error instanceof Error ? error.message : String(error))
      return
    }
    registered = true
    const current = scope.get()
    if (changes(config, current)) run(withSettings(config, current))
    scope.watch((next) => {
      if (!unloading(ctx)) run(withSettings(config, next))
    })
    scoped.effect(() => () => {
      if (!unloading(ctx)) run({ ...config })
    }, 'dsh-brake: settings section')
  })
}

function changes(config: Readonly<Config>, settings: ReturnType<typeof settingsOf>): boolean {
  const base = settingsOf(config)
  return JSON.stringify(base) !== JSON.stringify(settingsOf(withSettings(config, settings)))
}

/** Whether the brake's own plugin is going away (then the row's config need not run again). */
function unloading(ctx: Context): boolean {
  const state: number = ctx.fiber.state
  return state === FIBER_UNLOADING || state === FIBER_DISPOSED
}
