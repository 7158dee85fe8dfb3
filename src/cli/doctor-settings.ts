/**
 * The doctor's look at the settings the brake runs with: each key of the settings section (what the web UI's Settings
 * → Plugins card edits) with its value in force and the layer it comes from (the settings document, the profile's
 * cordis.patch.yml row, or the default), and a section the brake would refuse, with its file and line.
 * Design: docs/design.md#settings-from-the-web-ui
 * @module dsh-brake/cli/doctor-settings
 */
import { configProblems } from '../config/check.js'
import { Config } from '../config/schema.js'
import { SETTINGS_KEYS, SETTINGS_NAMESPACE, settingsProblems, withSettings, type Settings, type SettingsKey } from '../config/settings.js'
import { DSH_RELEASE } from '../dsh-files/dsh-release.js'
import { effectiveRow, type PatchRow } from '../dsh-files/patch-file.js'
import { readSettingsSection, settingsFilePath, type SettingsSection } from '../dsh-files/settings-file.js'

/** How a check reports (as the doctor's other checks). */
export interface SettingsFindings {
  readonly ok: (text: string) => void
  readonly note: (text: string) => void
  readonly problem: (text: string) => void
  /** A line under the finding before it. */
  readonly detail: (text: string) => void
}

/** The stock bundle whose `settings` row mounts DSH's settings service (and with it the web UI's card). */
const SETTINGS_BUNDLE = '@deepseek-ai/dsh-base'

/**
 * Report the settings in force and where each comes from; `rows` are the profile's patch rows, in DSH's order.
 * Returns the config in force (the row's, with the settings section over it), or undefined when the row's config is
 * one the brake refuses (reported already) or the settings document cannot be read.
 */
export function reportSettings(
  home: string, bundles: readonly string[], rows: readonly { file: string; row: PatchRow }[], findings: SettingsFindings,
): Config | undefined {
  const own = effectiveRow(rows.map(({ row }) => row), SETTINGS_NAMESPACE).config
  const rowConfig: unknown = own?.config ?? {}
  // A row the brake refuses was reported above: the settings cannot be judged over it.
  if (configProblems(rowConfig).length > 0) return undefined
  const config = Config(rowConfig as Partial<Config>)
  const served = bundles.includes(SETTINGS_BUNDLE)
  const file = settingsFilePath(home, effectiveRow(rows.map(({ row }) => row), 'settings').config?.config)
  const read = served ? readSettingsSection(file, SETTINGS_NAMESPACE) : undefined
  if (read !== undefined && 'error' in read) {
    findings.problem(`${read.error}: DSH does not start with a settings document it cannot read`)
    return undefined
  }
  let section: SettingsSection | undefined = read?.section === undefined ? undefined : read
  const problems = section === undefined ? [] : settingsProblems(section.section, config)
  for (const { path, message } of problems) {
    findings.problem(`${section!.file}:${section!.lineOf(typeof path[0] === 'string' ? path[0] : undefined)}: ${message}; `
      + 'DSH refuses such a value from the web UI, so it was written by hand: until it is fixed, dsh-brake runs with its cordis.patch.yml config')
  }
  if (problems.length > 0) section = undefined
  const rowFile = rows.find(({ row }) => row === own)?.file
  findings.ok(served
    ? `settings in force as the files set them (the web UI's Settings → Plugins card writes the \`${SETTINGS_NAMESPACE}:\` section of ${file}; a reset there returns to cordis.patch.yml):`
    : `settings in force as the files set them (this profile does not load ${SETTINGS_BUNDLE}, so it has no settings service and the web UI's card does not show: cordis.patch.yml alone):`)
  const values = section?.section as Partial<Record<SettingsKey, unknown>> | undefined
  const table = SETTINGS_KEYS.map((key) => {
    const from = values?.[key] !== undefined && values[key] !== null ? `settings ${section!.file}:${section!.lineOf(key)}`
      : isWritten(rowConfig, key) && rowFile !== undefined ? `cordis.patch.yml ${rowFile}:${own!.lineOf([key])}`
        : 'default'
    return { key, value: show(values?.[key] ?? config[key]), from }
  })
  // Each column as wide as its widest cell: a long list of tools pushes the sources right, on every line alike.
  const keyWidth = Math.max(...table.map(({ key }) => key.length))
  const valueWidth = Math.max(...table.map(({ value }) => value.length))
  for (const { key, value, from } of table) findings.detail(`${key.padEnd(keyWidth)}  ${value.padEnd(valueWidth)}  ${from}`)
  // The doctor reads the files; a running dsh has what its watcher read of them (docs/install.md, editing while dsh runs).
  findings.note(`these are what dsh starts with; a dsh already running has them only if it read each save of cordis.patch.yml: DSH ${DSH_RELEASE} `
    + 'can miss a save written in place (`cat >`, `cp`, some editors), which dsh-brake then says on dsh\'s terminal; `touch` the file to have it read again')
  return values === undefined ? config : withSettings(config, values as Partial<Settings>)
}

function isWritten(config: unknown, key: string): boolean {
  const value = typeof config === 'object' && config !== null ? (config as Record<string, unknown>)[key] : undefined
  return value !== undefined && value !== null
}

/** A value as a person writes it in YAML: a list of tool names as `[read, grep]`. */
function show(value: unknown): string {
  if (typeof value === 'string') return value
  if (Array.isArray(value) && value.every(item => typeof item === 'string' && /^[\w*.-]+$/.test(item))) return `[${value.join(', ')}]`
  return JSON.stringify(value)
}
