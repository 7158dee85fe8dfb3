/**
 * `dsh-brake analyze`: the loops in DSH session logs, what the brake would do about them under a config (or two, side
 * by side), what it said in the session itself, and what the loops cost. Bad input is checked before any log is read
 * (exit 2); a log that cannot be read is named and the others are still reported (exit 1).
 * Design: docs/design.md#source-layout; flags and exit codes: docs/analyze.md
 * @module dsh-brake/cli/analyze
 */
import { once } from 'node:events'
import { accessSync, closeSync, constants, openSync, statSync, writeSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { analyzeSessions, type ConfigSetup } from '../analyze/analyze-sessions.js'
import { readConfigFile } from '../analyze/config-file.js'
import { createProgressLine } from '../analyze/progress-line.js'
import type { Analysis } from '../analyze/analysis.js'
import { htmlReportParts } from '../analyze/report-html.js'
import { jsonReportParts } from '../analyze/report-json.js'
import { textReportParts } from '../analyze/report-text.js'
import { canDecodeSessionLogs } from '../session-logs/decode.js'
import { selectLogs } from '../session-logs/select.js'
import { UsageError } from '../errors/usage-error.js'
import { errorCode, FileError } from '../errors/file-errors.js'
import { name } from '../dsh/plugin.js'
import { parseOptions } from './parse-options.js'

export const ANALYZE_USAGE = `usage: dsh-brake analyze [options] [<path>…]

  <path>             a session log (session.jsonl.zstd), a folder of them, or a DSH home (its sessions/);
                     default: the DSH home ($DSH_HOME, else ~/.dsh)
  --config file.yml  the brake's config keys (as in a cordis.patch.yml config map); default: the defaults
  --compare b.yml    also replay under this config, side by side
  --last N           only the N most recent sessions (by their last write), with their subagents
  --since DATE       only sessions written to since DATE (2026-11-01, or a full ISO time)
  --project DIR      only sessions whose working directory is DIR or under it
  --all              also list the quiet sessions (no loop, nothing the brake would do)
  --jobs N           threads to read logs on; default: one per core
  --json             print one JSON document instead of the text report
  --html file.html   also write a self-contained page: an overview, then a timeline per agent
  -h, --help         this help`

/** Run the command with its arguments (after `analyze`); resolves to the exit code. */
export async function runAnalyze(argv: readonly string[]): Promise<number> {
  try {
    return await analyze(argv)
  } catch (error) {
    // The logs and config files are read by code that knows nothing of exit codes: a path that names nothing, or a
    // config file the plugin refuses, is bad input here. (A log that cannot be read is named with the report.)
    throw error instanceof FileError ? new UsageError(error.message) : error
  }
}

async function analyze(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    config: { type: 'string' },
    compare: { type: 'string' },
    last: { type: 'string' },
    since: { type: 'string' },
    project: { type: 'string' },
    all: { type: 'boolean' },
    jobs: { type: 'string' },
    json: { type: 'boolean' },
    html: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  })
  if (values['help'] === true) {
    process.stdout.write(`${ANALYZE_USAGE}\n`)
    return 0
  }
  if (!canDecodeSessionLogs()) throw new UsageError(`analyze needs Node 22.19 or later, as DSH does (its session logs are zstd); this is Node ${process.version}`)
  const setups = configSetups(values['config'] as string | undefined, values['compare'] as string | undefined)
  const html = values['html'] as string | undefined
  if (html !== undefined) checkWritable(html)
  const jobs = wholeNumber(values['jobs'], '--jobs', 1)
  const last = wholeNumber(values['last'], '--last', 1)
  // Counted up front only for the progress line, which only a terminal shows: else the logs are walked once.
  const { files, count, warnings } = selectLogs(positionals, {
    ...last === undefined ? {} : { last },
    ...values['since'] === undefined ? {} : { since: date(values['since'] as string) },
    ...values['project'] === undefined ? {} : { project: values['project'] as string },
  }, { count: process.stderr.isTTY })
  for (const warning of warnings) process.stderr.write(`${name}: ${warning}\n`)
  const said = warnings.length
  const progress = createProgressLine(process.stderr, count ?? 0)
  const analysis = await analyzeSessions(files, setups, {
    ...jobs === undefined ? {} : { jobs }, ...count === undefined ? {} : { count }, all: values['all'] === true, progress: done => progress.update(done),
  })
  progress.end()
  for (const warning of warnings.slice(said)) process.stderr.write(`${name}: ${warning}\n`)
  // Part by part, each waiting for the last to drain: a pipe that reads slowly does not fill this process's memory.
  for (const part of values['json'] === true ? jsonReportParts(analysis) : textReportParts(analysis)) {
    if (!process.stdout.write(part)) await once(process.stdout, 'drain')
  }
  const written = html === undefined || writeHtml(html, analysis)
  for (const error of analysis.errors) process.stderr.write(`${name}: ${error.file}: ${error.message}\n`)
  return analysis.errors.length === 0 && written ? 0 : 1
}

/** A flag's whole number of at least `min`; undefined when the flag is not given. @throws UsageError naming the flag. */
function wholeNumber(value: string | boolean | (string | boolean)[] | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined
  const number = Number(value)
  if (!Number.isInteger(number) || number < min) throw new UsageError(`\`${flag}\` takes a whole number of at least ${min}, got ${String(value)}`)
  return number
}

/** `--since`'s date: a day (`2026-11-01`, from its start in local time) or a full ISO time. @throws UsageError. */
function date(value: string): Date {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value)
  const parsed = new Date(day ? `${value}T00:00:00` : value)
  if (Number.isNaN(parsed.getTime())) throw new UsageError(`\`--since\` takes a date (2026-11-01) or an ISO time, got ${value}`)
  return parsed
}

/**
 * Write the page, and say so on stderr; a page that cannot be written is one line there, not a stack, as the text
 * or JSON report is already out. @returns whether it was written.
 */
function writeHtml(file: string, analysis: Analysis): boolean {
  try {
    const fd = openSync(file, 'w')
    try {
      for (const part of htmlReportParts(analysis)) writeSync(fd, part)
    } finally {
      closeSync(fd)
    }
  } catch (error) {
    process.stderr.write(`${name}: cannot write the HTML report ${file} (${errorCode(error)})\n`)
    return false
  }
  process.stderr.write(`${name}: HTML report written to ${file}\n`)
  return true
}

/**
 * Whether the page can be written where `--html` names it, asked before the logs are read: a report of a whole home
 * takes a while, and a path that fails only at the end would lose the page after it. Nothing is created here.
 * @throws UsageError naming the path and what is wrong with it.
 */
function checkWritable(file: string): void {
  const folder = dirname(resolve(file))
  let problem: string | undefined
  try {
    const found = statSync(file, { throwIfNoEntry: false })
    const parent = found === undefined ? statSync(folder, { throwIfNoEntry: false }) : undefined
    if (found?.isDirectory() === true) problem = 'is a folder; name a file in it (report.html)'
    else if (found === undefined && parent === undefined) problem = `cannot be written: the folder ${folder} does not exist`
    else if (found === undefined && parent?.isDirectory() !== true) problem = `cannot be written: ${folder} is not a folder`
    else accessSync(found === undefined ? folder : file, constants.W_OK)
  } catch (error) {
    problem = `cannot be written (${errorCode(error)})`
  }
  if (problem !== undefined) throw new UsageError(`\`--html\` file ${file}: ${problem}`)
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
