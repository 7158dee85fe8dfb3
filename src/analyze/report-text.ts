/**
 * The analysis as text for a terminal: per session and agent, its loops with what they cost, then a table of every
 * call where something happened, with what the brake would do under each config side by side and what it said in
 * the session itself.
 * @module dsh-brake/analyze/report-text
 */
import { plural } from '../plural.js'
import { fit } from '../text.js'
import type { AgentAnalysis, Analysis, BrakeAction, Loop, Tokens } from './analysis.js'
import { cutRows, place, tokenCount } from './wording.js'

/** The whole report. */
export function textReport(analysis: Analysis): string {
  const loops = analysis.agents.reduce((count, agent) => count + agent.loops.length, 0)
  const sessions = new Set(analysis.agents.map(agent => agent.session)).size
  const lines = [
    `dsh-brake analyze: ${plural(sessions, 'session')}, ${plural(analysis.agents.length, 'agent')}, ${plural(loops, 'loop')}; `
    + `config${analysis.configs.length > 1 ? 's' : ''}: ${analysis.configs.join(' vs ')}`,
  ]
  for (const agent of analysis.agents) lines.push('', ...agentText(agent, analysis.configs))
  if (analysis.errors.length > 0) {
    lines.push('', `${plural(analysis.errors.length, 'session log')} could not be read:`)
    for (const error of analysis.errors) lines.push(`  ${error.file}: ${error.message}`)
  }
  return `${lines.join('\n')}\n`
}

function agentText(agent: AgentAnalysis, configs: readonly string[]): string[] {
  const lines = [
    `session ${agent.session} · ${agent.agent === 'main' ? 'main agent' : `subagent ${agent.agent}`} · ${plural(agent.calls.length, 'call')} · ${tokens(agent.tokens)}`,
    `  ${agent.file}`,
  ]
  if (agent.loops.length === 0) lines.push('  no loops found')
  agent.loops.forEach((loop, index) => lines.push(...loopText(loop, index + 1, configs)))
  for (const config of configs) {
    const spared = agent.spared[config] ?? 0
    if (spared > 0) lines.push(`  under ${config}, stops would have spared ${plural(spared, 'call')}`)
  }
  lines.push(...cutLines(agent, configs))
  lines.push(...actionTable(agent, configs))
  return lines
}

function loopText(loop: Loop, number: number, configs: readonly string[]): string[] {
  const first = configs.map(config => `${config}: ${place(loop.firstAction[config] ?? null)}`)
  return [
    `  loop ${number}: ${loop.kind}, calls ${loop.firstCall}–${loop.lastCall} (${plural(loop.calls, 'call')}, period ${loop.period}, `
    + `a loop from call ${loop.begins}), rules ${loop.rules.join('+')}; cost ${tokens(loop.tokens)}`,
    `    first brake action within it: ${[...first, `said in the session: ${place(loop.firstSaid)}`].join(' · ')}`,
  ]
}

/** Each response that repeats itself: where each config cuts it, and whether the brake cut it in the session. */
function cutLines(agent: AgentAnalysis, configs: readonly string[]): string[] {
  return cutRows(agent, configs).map(({ response, callsBefore, under, inSession }) => `  response ${response} (after call ${callsBefore}) repeats itself: ${
    [...under.map((place, column) => `${configs[column]!}: ${place}`), inSession ? 'cut in the session' : 'not cut in the session'].join(' · ')}`)
}

/** Every call where the brake acted under some config, or acted in the session: one column each. */
function actionTable(agent: AgentAnalysis, configs: readonly string[]): string[] {
  const columns = [...configs.map(config => agent.brake[config] ?? []), agent.said]
  const calls = [...new Set(columns.flat().map(action => action.call))].sort((a, b) => a - b)
  if (calls.length === 0) return ['  the brake does nothing here, under any config, and said nothing in the session']
  const rows = [['call', ...configs, 'said in the session'], ...calls.map(call => [
    String(call), ...columns.map(actions => actions.filter(a => a.call === call).sort(byWeight).map(describe).join('; ') || '–'),
  ])]
  const widths = rows[0]!.map((_, column) => Math.min(60, Math.max(...rows.map(row => row[column]!.length))))
  return rows.map(row => `  ${row.map((cell, column) => column === 0 ? cell.padStart(widths[0]!) : fit(cell, widths[column]!).padEnd(widths[column]!)).join('  ').trimEnd()}`)
}

/** A stop or a refusal first in its cell: a long notice must not push it out of sight. */
function byWeight(a: BrakeAction, b: BrakeAction): number {
  const weight = { stop: 0, refusal: 1, notice: 2 }
  return weight[a.kind] - weight[b.kind]
}

/** A notice by its summary; a refusal's or a stop's reason is in the JSON and the page. */
function describe(action: BrakeAction): string {
  return action.kind === 'notice' ? `notice: ${action.text}` : action.kind
}

function tokens(value: Tokens): string {
  return tokenCount(value, 'estimated from text size')
}
