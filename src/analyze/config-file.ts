/**
 * A config file for `--config` or `--compare`: YAML holding the keys of the plugin's `config` map (`callWarnCount: 6`),
 * or a profile patch (`cordis.patch.yml`) whose `dsh-brake` row carries them (a patch without one: the defaults). It
 * is checked by the plugin's own rules and schema (src/config/), so a mistake reads as it would when the plugin
 * loads, with the file named first: a {@link FileError}, which the command that was given the file words as it must.
 * @module dsh-brake/analyze/config-file
 */
import { readFileSync } from 'node:fs'
import { configProblems, isMapping, listProblems } from '../config/check.js'
import { Config } from '../config/schema.js'
import { effectiveRow, readPatchFile, type PatchFile } from '../dsh-files/patch-file.js'
import { cannotBeRead, FileError } from '../errors/file-errors.js'

/** A config file's config, and what about the file the user should know although the replay goes on. */
export interface ConfigFile {
  readonly config: Record<string, unknown>
  /** One line, or none: the brake's row turns it off, or keys of its written as `!!js` were set aside. */
  readonly remark: string | undefined
}

/**
 * Read, parse and check a config file named by `flag`; the config as the plugin would be given it.
 * @throws FileError naming the file as `` `--config` file strict.yml ``, and what is wrong with it.
 */
export function readConfigFile(file: string, flag: string, brake: string): ConfigFile {
  const where = `\`${flag}\` file ${file}`
  const fail = (problem: string): FileError => new FileError(file, problem, where)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw fail(cannotBeRead(error))
  }
  const patch = readPatchFile(text)
  const [syntax] = patch.errors
  if (syntax !== undefined) throw fail(`not valid YAML (line ${syntax.line}: ${syntax.message})`)
  const found = configOf(patch, brake)
  if (found === undefined) throw fail(`expected a map of ${brake} config keys, or a profile patch with a \`${brake}\` row`)
  const problem = configProblem(found.config)
  if (problem !== undefined) throw fail(problem)
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
 * A config's problems as the plugin finds them at load: every rule on the config as written (so each problem is
 * worded as the plugin words it, and all are listed), then the schema, which fills the defaults; none: undefined.
 */
function configProblem(config: Record<string, unknown>): string | undefined {
  const problems = configProblems(config)
  if (problems.length > 0) return listProblems(problems)
  try {
    Config(config)
  } catch (error) {
    return (error as Error).message
  }
  return undefined
}
