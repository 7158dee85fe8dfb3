#!/usr/bin/env node
/**
 * The `dsh-brake` command. For now it has one subcommand, `doctor` (src/cli/doctor.ts); each subcommand lives in a
 * file of its own and this file only dispatches.
 * @module dsh-brake/cli
 */
import { runDoctor } from './doctor.js'

const USAGE = `Usage: dsh-brake <command>

Commands:
  doctor [--profile NAME]   check that dsh-brake loads and runs in a DSH profile, and that its config is right`

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === 'doctor') return runDoctor(rest)
  if (command === undefined || command === '--help' || command === '-h') {
    console.log(USAGE)
    return command === undefined ? 2 : 0
  }
  console.error(`dsh-brake: unknown command ${JSON.stringify(command)}\n\n${USAGE}`)
  return 2
}

process.exitCode = await main(process.argv.slice(2))
