/**
 * `npm run demo [-- <scenario>]`: dsh-brake inside a real DSH agent loop, with a scripted looping model.
 *
 * Each scenario boots the published DSH services (test/support/dsh.ts), mounts the built plugin through the real
 * Loader from a profile patch row, plays a model script against fake tools, and then prints the agent's session log
 * as a transcript. The transcript is read from the log after the run, not from live hooks, so it shows exactly what
 * the model was given and in which order. No API key, no network.
 *
 * This file is the command and the run loop; the scenarios are data in scenarios.ts, and transcript.ts renders a run.
 *
 * Plain Node runs this file (type stripping), so it keeps to erasable TypeScript syntax.
 */
import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { agent, bootDsh, mountProfile, prompt, tool } from '../../test/support/dsh.ts'
import { FAKE_TOOLS, SCENARIOS, type Scenario } from './scenarios.ts'
import { printFooter, printHeader, printTranscript } from './transcript.ts'

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
    const counters = Object.entries(FAKE_TOOLS).map(([name, body]) => tool(ctx, name, (args, runs) => body(args, runs)))
    const { agent: target } = agent(ctx, [...scenario.script])
    for (const text of scenario.prompts) await prompt(ctx, target, text)
    return { events: [...target.session.events], ran: counters.reduce((sum, counter) => sum + counter.runs, 0) }
  } finally {
    await ctx.fiber.dispose()
  }
}

/** Run the named scenario, or all of them in order; an unknown name lists the scenarios and fails. */
async function main(argv: readonly string[]): Promise<number> {
  const wanted = argv[0]
  const chosen = wanted === undefined ? SCENARIOS : SCENARIOS.filter(scenario => scenario.name === wanted)
  if (chosen.length === 0) {
    console.error(`unknown scenario '${wanted}'. Scenarios:`)
    for (const scenario of SCENARIOS) console.error(`  ${scenario.name.padEnd(10)} ${scenario.about}`)
    return 1
  }
  for (const scenario of chosen) {
    printHeader(scenario)
    const { events, ran } = await run(scenario)
    printFooter(printTranscript(events), ran)
  }
  return 0
}

process.exitCode = await main(process.argv.slice(2))
