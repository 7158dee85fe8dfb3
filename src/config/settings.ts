/**
 * The brake's settings section: the keys a person tunes from DSH's web UI (Settings → Plugins), how the section sits
 * over the cordis.patch.yml row, and what of it the brake refuses. Pure: the DSH side (src/dsh/settings.ts) registers
 * it with DSH's settings service; the doctor reads it from the settings document.
 *
 * Layers, lowest first: the schema's defaults, the row's config (the base: what a reset returns to), the user's
 * section. The section holds only the keys below; every other key stays the row's alone.
 * Design: docs/design.md#settings-from-the-web-ui
 * @module dsh-brake/config/settings
 */
import { configProblems, isMapping, type ConfigProblem } from './check.js'
import type { Config, ConfigKey } from './keys.js'

/** The settings namespace: DSH's settings document keeps the section under it, and the web card is keyed on it. */
export const SETTINGS_NAMESPACE = 'dsh-brake'

/**
 * The keys of the section, in the order the card shows them. Each is a config key of the same name and meaning: the
 * schema, the defaults and the checks of each come from the table of keys (src/config/keys.ts), so a key whose shape
 * changes there (as `streamCut` may) changes here with it.
 */
export const SETTINGS_KEYS = ['mode', 'callWarnCount', 'callDenyCount', 'streamCut', 'include', 'exclude'] as const satisfies readonly ConfigKey[]

export type SettingsKey = (typeof SETTINGS_KEYS)[number]

/** The section's values, as the settings service resolves them (every key present). */
export type Settings = Pick<Config, SettingsKey>

/** The section's part of a config: the base layer the row gives the settings. */
export function settingsOf(config: Readonly<Config>): Settings {
  return Object.fromEntries(SETTINGS_KEYS.map(key => [key, config[key]])) as Settings
}

/** The config the brake runs with: the row's, with the section's values over it. */
export function withSettings(config: Readonly<Config>, settings: Readonly<Partial<Settings>>): Config {
  const over = Object.fromEntries(SETTINGS_KEYS.filter(key => settings[key] !== undefined).map(key => [key, settings[key]]))
  return { ...config, ...over }
}

/**
 * Every problem of a section (as layered over the base, before any schema fills or coerces it) in the brake's own
 * words: a key that is not one of the section's, and each rule of the keys, the rule between keys included, judged
 * with the rest of the row's config, which is what the brake would run with.
 */
export function settingsProblems(section: unknown, config: Readonly<Config>): ConfigProblem[] {
  if (section === undefined || section === null) return []
  if (!isMapping(section)) return [{ path: [], message: `the settings section must be a mapping of keys to values, got ${typeof section}` }]
  const keys: readonly string[] = SETTINGS_KEYS
  const foreign = Object.keys(section).filter(key => !keys.includes(key)).map(key => ({
    path: [key],
    message: `\`${key}\` is not one of the settings (${SETTINGS_KEYS.join(', ')}); other keys go in the row of cordis.patch.yml`,
  }))
  const known = Object.fromEntries(Object.entries(section).filter(([key]) => keys.includes(key)))
  return [...foreign, ...configProblems({ ...config, ...known })]
}
