/**
 * The analysis as one JSON document: `loops` lists every loop of every session and agent (with at least `session`,
 * `agent`, `kind`, `firstCall` and `calls`), `agents` what each agent did and what the brake would do or did, and
 * `errors` the logs that could not be read. Token counts are whole numbers.
 * @module dsh-brake/analyze/report-json
 */
import type { Analysis, Tokens } from './analysis.js'

/** The document, as text. */
export function jsonReport(analysis: Analysis): string {
  const document = {
    configs: analysis.configs,
    loops: analysis.agents.flatMap(agent => agent.loops),
    agents: analysis.agents.map(agent => ({
      ...agent,
      calls: agent.calls.map(call => ({ ...call, tokens: whole(call.tokens) })),
    })),
    errors: analysis.errors,
  }
  return `${JSON.stringify(document, null, 2)}\n`
}

function whole(tokens: Tokens): Tokens {
  const { input, output, total, estimated } = tokens
  return { input: Math.round(input), output: Math.round(output), total: Math.round(total), estimated }
}
