/**
 * `npm run demo [-- <scenario>]`: dsh-brake inside a real DSH agent loop, with a scripted looping model.
 *
 * Each scenario boots the published DSH services (scripts/dsh-loop.ts), mounts the built plugin through the real
 * Loader from a profile patch row, plays a model script against fake tools, and then prints the agent's session log
 * as a transcript. The transcript is read from the log after the run, not from live hooks, so it shows exactly what
 * the model was given and in which order. No API key, no network.
 *
 * This file is the command and the run loop; the scenarios are data in scenarios.ts, and transcript.ts renders a run.
 *
 * Plain Node runs this file and the sources it imports (type stripping, with scripts/ts-imports.mjs), so it keeps to
 * erasable TypeScript syntax.
 */
import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { withoutStopLines } from '../../src/replay/replay.ts'
import { agent, bootDsh, mountProfile, prompt, tool } from '../dsh-loop.ts'
import { FAKE_TOOLS, SCENARIOS, type Scenario } from './scenarios.ts'
import { printFooter, printHeader, printSummary, printTranscript, type Tally } from './transcript.ts'

interface Run {
  /** The agent's session log, copied before the context is disposed. */
  readonly events: readonly SessionEvent[]
  /** How many times a tool body actually ran: refused calls never reach it. */
  readonly ran: number
}

/** Play `scenario` on a fresh DSH loop with dsh-brake loaded from its patch row, and keep what the run left behind. */
async function run(scenario: Scenario): Promise<Run> {
  const ctx = await bootDsh()
  try {
    await mountProfile(ctx, [{ id: 'dsh-brake', config: scenario.config }])
    await scenario.setup?.(ctx)
    const tools = { ...FAKE_TOOLS, ...scenario.tools }
    const counters = Object.entries(tools).map(([name, body]) => tool(ctx, name, (args, runs) => body(args, runs)))
    const { agent: target } = agent(ctx, [...scenario.script])
    // A stop writes its reason to stderr for the person at the terminal; the transcript shows it where it happened.
    await withoutStopLines(async () => {
      for (const text of scenario.prompts) await prompt(ctx, target, text)
    })
    return { events: [...target.session.events], ran: counters.reduce((sum, counter) => sum + counter.runs, 0) }
  } finally {
    await ctx.fiber.dispose()
  }
}

const USAGE = `Usage: npm run demo [-- <scenario>]

Plays dsh-brake inside a real DSH agent loop with a scripted model that loops (no API key, no network), and prints
what the model saw. With no scenario, plays them all.`

/** The scenarios, one a line, for --help and for an unknown name. */
function scenarioList(): string {
  return ['Scenarios:', ...SCENARIOS.map(scenario => `  ${scenario.name.padEnd(10)} ${scenario.about}`)].join('\n')
}

/** Run the named scenario, or all of them in order; `--help` says how; an unknown name or option fails, listing them. */
async function main(argv: readonly string[]): Promise<number> {
  const [wanted, ...extra] = argv
  if (wanted === '--help' || wanted === '-h') {
    console.log(`${USAGE}\n\n${scenarioList()}`)
    return 0
  }
  if (wanted?.startsWith('-') === true || extra.length > 0) {
    console.error(`${wanted?.startsWith('-') === true ? `unknown option '${wanted}'` : `one scenario at a time, got ${argv.join(' ')}`}\n\n${USAGE}\n\n${scenarioList()}`)
    return 1
  }
  const chosen = wanted === undefined ? SCENARIOS : SCENARIOS.filter(scenario => scenario.name === wanted)
  if (chosen.length === 0) {
    console.error(`unknown scenario '${String(wanted)}'.\n\n${scenarioList()}`)
    return 1
  }
  const tallies: (Tally & { ran: number })[] = []
  for (const scenario of chosen) {
    printHeader(scenario)
    const { events, ran } = await run(scenario)
    const tally = printTranscript(events)
    printFooter(tally, ran)
    tallies.push({ ...tally, ran })
  }
  printSummary(tallies)
  return 0
}

process.exitCode = await main(process.argv.slice(2))
