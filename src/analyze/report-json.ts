/**
 * The analysis as one JSON document: `overview` first (the figures over every session, the costliest loops), then
 * `sessions` with something to show, costliest first, each with its agents (calls, loops, what the brake would do and
 * did); `quiet` counts the others (and lists them with `--all`); `loops` lists every loop of those sessions, in the
 * same order (each with at least `session`, `agent`, `kind`, `period`, `firstCall`, `calls`, `tokens` and
 * `wasted`); `errors` names the logs that could not be read. Token counts are whole numbers.
 *
 * It is written session by session, each read back from the run's spill file in turn, so a report of thousands of
 * sessions is never held whole.
 * @module dsh-brake/analyze/report-json
 */
import type { AgentAnalysis, Analysis, SessionAnalysis, Tokens } from './analysis.js'

/** The document, as one string (for a handful of sessions, and the tests). */
export function jsonReport(analysis: Analysis): string {
  return [...jsonReportParts(analysis)].join('')
}

/** The document, part by part: one session at a time is read back and written, so a writer can keep pace with it. */
export function* jsonReportParts(analysis: Analysis): Generator<string> {
  const field = (name: string, value: unknown, last = false): string => `  ${JSON.stringify(name)}: ${nested(value)}${last ? '' : ','}\n`
  /** An array, one element at a time. */
  function* array(name: string, elements: Iterable<unknown>, last = false): Generator<string> {
    yield `  ${JSON.stringify(name)}: [`
    let first = true
    for (const element of elements) {
      yield `${first ? '' : ','}\n    ${nested(element, 4)}`
      first = false
    }
    yield `${first ? '' : '\n  '}]${last ? '' : ','}\n`
  }
  yield `{\n${field('configs', analysis.configs)}${field('overview', analysis.overview)}`
  yield* array('sessions', (function* () {
    for (const session of analysis.sessions) yield sessionDocument(session)
  })())
  yield field('quiet', analysis.quiet)
  yield* array('loops', (function* () {
    for (const session of analysis.sessions) for (const agent of session.agents) yield* agent.loops
  })())
  yield `${field('errors', analysis.errors, true)}}\n`
}

function sessionDocument(session: SessionAnalysis): object {
  const { agents, ...figures } = { ...session, agents: session.agents }
  return { ...figures, agents: agents.map(agentDocument) }
}

function agentDocument(agent: AgentAnalysis): object {
  return { ...agent, calls: agent.calls.map(call => ({ ...call, tokens: whole(call.tokens) })) }
}

/** `value` as indented JSON whose lines after the first sit `depth` spaces in. */
function nested(value: unknown, depth = 2): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${' '.repeat(depth)}`)
}

function whole(tokens: Tokens): Tokens {
  const { input, output, total, estimated } = tokens
  return { input: Math.round(input), output: Math.round(output), total: Math.round(total), estimated }
}
