/**
 * A config file for `--config` or `--compare`: YAML holding the keys of the plugin's `config` map (`callWarnCount: 6`),
 * or a profile patch (`cordis.patch.yml`) whose `dsh-brake` row carries them (a patch without one: the defaults). It
 * is checked by the plugin's own rules and schema (src/config/), so a mistake reads as it would when the plugin
 * loads, with the file named first.
 * @module dsh-brake/analyze/config-file
 */
import { readFileSync } from 'node:fs'
import { configProblems, isMapping, listProblems } from '../config/check.js'
import { Config } from '../config/schema.js'
import { effectiveRow, readPatchFile, type PatchFile } from '../dsh-files/patch-file.js'
import { cannotBeRead } from '../errors/file-errors.js'
import { UsageError } from '../errors/usage-error.js'

/** A config file's config, and what about the file the user should know although the replay goes on. */
export interface ConfigFile {
  readonly config: Record<string, unknown>
  /** One line, or none: the brake's row turns it off, or keys of its written as `!!js` were set aside. */
  readonly remark: string | undefined
}

/** Read, parse and check a config file named by `flag`; the config as the plugin would be given it. */
export function readConfigFile(file: string, flag: string, brake: string): ConfigFile {
  const where = `\`${flag}\` file ${file}`
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new UsageError(`${where}: ${cannotBeRead(error)}`)
  }
  const patch = readPatchFile(text)
  const [syntax] = patch.errors
  if (syntax !== undefined) throw new UsageError(`${where}: not valid YAML (line ${syntax.line}: ${syntax.message})`)
  const found = configOf(patch, brake)
  if (found === undefined) {
    throw new UsageError(`${where}: expected a map of ${brake} config keys, or a profile patch with a \`${brake}\` row`)
  }
  checkConfig(found.config, where)
  return { config: found.config, remark: found.remark === undefined ? undefined : `${where}: ${found.remark}` }
}

/**
 * The config map a file holds: the map itself, or the effective config of a patch list's rows for the brake (the
 * last row that writes one, as DSH applies them), read as the doctor reads patch files.
 */
function configOf(patch: PatchFile, brake: string): { config: Record<string, unknown>; remark?: string } | undefined {
  const value = patch.value
  if (value === undefined || value === null) return { config: {} }
  if (!Array.isArray(value)) return isMapping(value) ? { config: value } : undefined
  if (!value.every(isMapping)) return undefined
  const { config: row, disabledBy } = effectiveRow(patch.rows, brake)
  // A patch that leaves the brake's config alone leaves it at its defaults.
  const config = row?.config ?? {}
  if (!isMapping(config)) return undefined
  const remarks = [
    ...disabledBy === undefined ? [] : [`the ${brake} row on line ${disabledBy.line} turns the brake off (disabled: true); replayed as if it were on`],
    ...row === undefined || row.expressions.length === 0
      ? []
      : [`${row.expressions.map(key => `\`${key}\` (line ${row.lineOf([key])})`).join(', ')} ${row.expressions.length === 1
        ? 'is a !!js expression, which DSH computes at load: set aside, so its default is replayed'
        : 'are !!js expressions, which DSH computes at load: set aside, so their defaults are replayed'}`],
  ]
  return remarks.length === 0 ? { config } : { config, remark: remarks.join('; ') }
}

/**
 * Check a config as the plugin does at load: every rule on the config as written (so each problem is worded as the
 * plugin words it, and all are listed), then the schema, which fills the defaults.
 */
function checkConfig(config: Record<string, unknown>, where: string): void {
  const problems = configProblems(config)
  if (problems.length > 0) throw new UsageError(`${where}: ${listProblems(problems)}`)
  try {
    Config(config)
  } catch (error) {
    throw new UsageError(`${where}: ${(error as Error).message}`)
  }
}
