/**
 * `dsh-brake analyze`: the loops in DSH session logs, what the brake would do about them under a config (or two,
 * side by side), what it said in the session itself, and what the loops cost.
 *
 * Exit codes: 0 when every log was read; 1 when some could not be (each is named on stderr, and the report of the
 * others is still written) or the HTML page could not be written; 2 for bad input (an unknown flag, a missing path,
 * a config the plugin refuses).
 * @module dsh-brake/cli/analyze
 */
import { writeFileSync } from 'node:fs'
import { basename } from 'node:path'
import { analyzeSessions, type ConfigSetup } from '../analyze/analyze-sessions.js'
import { readConfigFile } from '../analyze/config-file.js'
import { createProgressLine } from '../analyze/progress-line.js'
import { htmlReport } from '../analyze/report-html.js'
import { jsonReport } from '../analyze/report-json.js'
import { textReport } from '../analyze/report-text.js'
import { sessionFiles } from '../dsh-files/session-files.js'
import { UsageError } from '../usage-error.js'
import { canDecodeSessionLogs } from '../replay/session-log.js'
import { errorCode } from '../file-errors.js'
import { name } from '../dsh/plugin.js'
import { parseOptions } from './parse-options.js'

export const ANALYZE_USAGE = `usage: dsh-brake analyze [--config file.yml] [--compare other.yml] [--json] [--html report.html] <path>…

  <path>             a session log (session.jsonl.zstd), a folder of them, or a DSH home (its sessions/)
  --config file.yml  the brake's config keys (as in a cordis.patch.yml config map); default: the defaults
  --compare b.yml    also replay under this config, side by side
  --json             print one JSON document instead of the text report
  --html file.html   also write a self-contained page with a timeline per agent
  -h, --help         this help`

/** Run the command with its arguments (after `analyze`); resolves to the exit code. */
export async function runAnalyze(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    config: { type: 'string' },
    compare: { type: 'string' },
    json: { type: 'boolean' },
    html: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  })
  if (values['help'] === true) {
    process.stdout.write(`${ANALYZE_USAGE}\n`)
    return 0
  }
  if (positionals.length === 0) throw new UsageError('analyze needs a session log, a folder of them, or a DSH home')
  if (!canDecodeSessionLogs()) throw new UsageError(`analyze needs Node 22.19 or later, as DSH does (its session logs are zstd); this is Node ${process.version}`)
  const setups = configSetups(values['config'] as string | undefined, values['compare'] as string | undefined)
  const files = positionals.flatMap(sessionFiles)
  const progress = createProgressLine(process.stderr, files.length)
  const analysis = await analyzeSessions(files, setups, done => progress.update(done))
  progress.end()
  process.stdout.write(values['json'] === true ? jsonReport(analysis) : textReport(analysis))
  const html = values['html'] as string | undefined
  const written = html === undefined || writeHtml(html, htmlReport(analysis))
  for (const error of analysis.errors) process.stderr.write(`${name}: ${error.file}: ${error.message}\n`)
  return analysis.errors.length === 0 && written ? 0 : 1
}

/**
 * Write the page, and say so on stderr; a page that cannot be written is one line there, not a stack, as the text
 * or JSON report is already out. @returns whether it was written.
 */
function writeHtml(file: string, page: string): boolean {
  try {
    writeFileSync(file, page)
  } catch (error) {
    process.stderr.write(`${name}: cannot write the HTML report ${file} (${errorCode(error)})\n`)
    return false
  }
  process.stderr.write(`${name}: HTML report written to ${file}\n`)
  return true
}

/** The configs to replay under: `--config`'s (or the defaults), then `--compare`'s, each named for the reports. */
function configSetups(config: string | undefined, compare: string | undefined): ConfigSetup[] {
  const setups: ConfigSetup[] = [config === undefined
    ? { name: 'defaults', config: {} }
    : { name: basename(config), config: configFrom(config, '--config') }]
  if (compare !== undefined) {
    let label = basename(compare)
    if (label === setups[0]!.name) label = compare
    if (label === setups[0]!.name) throw new UsageError(`\`--compare\` names the same file as \`--config\`: ${compare}`)
    setups.push({ name: label, config: configFrom(compare, '--compare') })
  }
  return setups
}

/** A config file's config; what was set aside or turned off in it is said on stderr, as the replay goes on. */
function configFrom(file: string, flag: string): Record<string, unknown> {
  const { config, remark } = readConfigFile(file, flag, name)
  if (remark !== undefined) process.stderr.write(`${name}: ${remark}\n`)
  return config
}
