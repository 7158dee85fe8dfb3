#!/usr/bin/env node
/**
 * The `dsh-brake` command: one subcommand per file, dispatched by its first argument.
 *
 * Bad input (an unknown command or flag, a missing file, a bad config) is one line on stderr naming what was wrong,
 * then exit code 2; `--help` prints the usage, `--version` (`-v`) the package's version.
 * @module dsh-brake/cli/main
 */
import { UsageError } from '../errors/usage-error.js'
import { ANALYZE_USAGE, runAnalyze } from './analyze.js'
import { DOCTOR_USAGE, runDoctor } from './doctor.js'
import { ownVersion } from './own-version.js'

/** Each subcommand: its arguments (after its name) in, its exit code out. */
const COMMANDS: Readonly<Record<string, (argv: string[]) => Promise<number>>> = {
  analyze: runAnalyze,
  doctor: runDoctor,
}

const USAGE = `usage: dsh-brake <command> [options]
       dsh-brake --version

commands:
  analyze   the loops in DSH session logs, what the brake would do about them, and what they cost
  doctor    check that dsh-brake loads and runs in a DSH profile, and that its config is right

${ANALYZE_USAGE}

${DOCTOR_USAGE}`

/** Run the command line `argv` (without node and the script); resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined) {
    // What was wrong first, as for every bad command line; then the usage, for the commands to choose from.
    process.stderr.write(`dsh-brake: no command given: name one of ${Object.keys(COMMANDS).join(', ')} (dsh-brake --help shows them)\n\n${USAGE}\n`)
    return 2
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${ownVersion() ?? 'unknown'}\n`)
    return 0
  }
  const run = COMMANDS[command]
  try {
    if (run === undefined) throw new UsageError(`unknown command \`${command}\` (commands: ${Object.keys(COMMANDS).join(', ')}; see --help)`)
    return await run(rest)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`dsh-brake: ${error.message}\n`)
    return 2
  }
}

// A reader that stops early (`dsh-brake analyze | head`) closes the pipe: that is the end of the report, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error
  process.exit(process.exitCode ?? 0)
})

process.exitCode = await main(process.argv.slice(2))
