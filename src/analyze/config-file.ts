/**
 * A config file for `--config` or `--compare`: YAML holding the keys of the plugin's `config` map (`callWarnCount: 6`),
 * or a profile patch (`cordis.patch.yml`) whose `dsh-brake` row carries them (a patch without one: the defaults). It
 * is checked by the plugin's own rules and schema (src/config.ts), so a mistake reads as it would when the plugin
 * loads, with the file named first.
 * @module dsh-brake/analyze/config-file
 */
import { readFileSync } from 'node:fs'
import { parseDocument } from 'yaml'
import { readPatchFile } from '../cli/patch-file.js'
import { Config, configProblems, listProblems } from '../config.js'
import { UsageError } from './usage-error.js'

/** Read, parse and check a config file named by `flag`; the config as the plugin would be given it. */
export function readConfigFile(file: string, flag: string, brake: string): Record<string, unknown> {
  const where = `\`${flag}\` file ${file}`
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new UsageError(`${where}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  const document = parseDocument(text, { prettyErrors: false })
  const [syntax] = document.errors
  if (syntax !== undefined) throw new UsageError(`${where}: not valid YAML (${syntax.message.split('\n')[0]})`)
  const config = configOf(document.toJS(), text, brake)
  if (config === undefined) {
    throw new UsageError(`${where}: expected a map of ${brake} config keys, or a profile patch with a \`${brake}\` row`)
  }
  checkConfig(config, where)
  return config
}

/**
 * The config map a file holds: the map itself, or the config of a patch list's row for the brake, read as the doctor
 * reads patch files.
 */
function configOf(value: unknown, text: string, brake: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return {}
  if (Array.isArray(value)) {
    if (!value.every(isMap)) return undefined
    // A patch that leaves the brake's row alone leaves it at its defaults.
    const config = readPatchFile(text).rows.find(row => row.id === brake)?.config ?? {}
    return isMap(config) ? config : undefined
  }
  return isMap(value) ? value : undefined
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

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
