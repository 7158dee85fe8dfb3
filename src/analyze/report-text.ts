/**
 * The analysis as text for a terminal. The overview comes first (what a user with a year of sessions asks: how much
 * did loops waste, what would the brake save, does my model listen, which loops cost most), then each session with
 * something to show, costliest first: its loops with what they cost, and a table of every call where the brake acts,
 * each config side by side with what it said in the session itself. Quiet sessions are counted; `--all` lists them.
 * @module dsh-brake/analyze/report-text
 */
import { LOOP_KINDS } from '../core/kinds.js'
import { plural } from '../words/plural.js'
import { fit } from '../words/text.js'
import { HEARD_WITHIN, type AgentAnalysis, type Analysis, type BrakeAction, type Loop, type SessionAnalysis } from './analysis.js'
import { figure as tokens, tokenCount } from './tokens.js'
import { callsOf, cutLive, cutRows, cutUnder, kindOf, place, responseAt, share } from './wording.js'

/** The whole report, as one string (for a handful of sessions, and the tests). */
export function textReport(analysis: Analysis): string {
  return [...textReportParts(analysis)].join('')
}

/** The report, part by part: one session at a time is read back and written, so a writer can keep pace with it. */
export function* textReportParts(analysis: Analysis): Generator<string> {
  const lines = (list: readonly string[]): string => `${list.join('\n')}\n`
  yield lines(overviewText(analysis))
  if (analysis.sessions.length > 0) {
    yield lines(['', '── sessions with loops or brake actions, costliest first ──'])
    for (const session of analysis.sessions) yield lines(['', ...sessionText(session, analysis.configs)])
  }
  const listed = analysis.quiet.sessions
  if (listed !== undefined && listed.length > 0) {
    yield lines(['', '── quiet sessions ──', ...listed.map(quiet => `session ${quiet.session} · ${plural(quiet.calls, 'call')} · ${tokenCount(quiet.tokens, 'estimated from text size')}`)])
  }
  if (analysis.errors.length > 0) {
    yield lines(['', `${plural(analysis.errors.length, 'session log')} could not be read:`, ...analysis.errors.map(error => `  ${error.file}: ${error.message}`)])
  }
}

/** The figures over every session. */
function overviewText({ configs, overview: o, quiet }: Analysis): string[] {
  const loops = LOOP_KINDS.reduce((count, kind) => count + o.loops[kind], 0)
  const kinds = LOOP_KINDS.filter(kind => o.loops[kind] > 0).map(kind => `${o.loops[kind]} ${kind}`)
  const lines = [
    `dsh-brake analyze: ${plural(o.sessions, 'session')} (${plural(o.agents, 'agent')}, ${plural(o.calls, 'call')}); `
    + `config${configs.length > 1 ? 's' : ''}: ${configs.join(' vs ')}`,
    `loops: ${loops === 0 ? 'none' : `${loops} in ${plural(o.sessionsWithLoops, 'session')}: ${kinds.join(', ')}`}`,
    `tokens: ${tokens(o.tokens)} in all; ${tokens(o.inLoops)} in loops (${share(o.inLoops, o.tokens)}); `
    + `${tokens(o.wasted)} wasted from their first repeat on (${share(o.wasted, o.tokens)})${o.tokens.estimated ? '; ~ marks estimates from text size' : ''}`,
  ]
  for (const config of configs) {
    const saved = o.saved[config]!
    const sure = saved.afterStop.total > 0 ? `; ${tokens(saved.afterStop)} for sure after its stops and cuts` : ''
    lines.push(`saved under ${config}: ${tokens(saved.afterNotice)} tokens after the brake's first notice on each loop, if the model stops there${sure}`)
  }
  lines.push(o.heard.loops === 0
    ? 'heard: the brake gave no notice on a loop in these sessions'
    : `heard: the brake spoke on ${plural(o.heard.loops, 'loop')} in these sessions; ${o.heard.endedSoon} (${share(o.heard.endedSoon, o.heard.loops)}) ended within ${HEARD_WITHIN} calls of its first notice`)
  if (o.costliest.length > 0) {
    lines.push('costliest loops (tokens wasted):')
    o.costliest.forEach((loop, index) => {
      lines.push(`  ${String(index + 1).padStart(2)}. ${tokens(loop.wasted).padStart(9)}  ${kindOf(loop)}, ${callsOf(loop)} · session ${loop.session}${loop.agent === 'main' ? '' : ` (subagent ${loop.agent})`}`)
    })
  }
  lines.push(`quiet sessions (no loop, nothing the brake would do or did): ${quiet.count}${quiet.count > 0 && quiet.sessions === undefined ? ' (--all lists them)' : ''}`)
  return lines
}

function sessionText(session: SessionAnalysis, configs: readonly string[]): string[] {
  const lines = [`session ${session.session} · ${plural(session.agentCount, 'agent')} · ${plural(session.calls, 'call')} · ${tokens(session.tokens)} tokens, ${tokens(session.wasted)} wasted in loops`]
  for (const agent of session.agents) lines.push(...agentText(agent, configs))
  return lines
}

function agentText(agent: AgentAnalysis, configs: readonly string[]): string[] {
  const lines = [
    `  ${agent.agent === 'main' ? 'main agent' : `subagent ${agent.agent}`} · ${plural(agent.calls.length, 'call')} · ${tokenCount(agent.tokens, 'estimated from text size')}`,
    `    ${agent.file}`,
  ]
  if (agent.loops.length === 0) lines.push('    no loops found')
  agent.loops.forEach((loop, index) => lines.push(...loopText(loop, index + 1, configs)))
  for (const config of configs) {
    const spared = agent.spared[config] ?? 0
    if (spared > 0) lines.push(`    under ${config}, stops would have spared ${plural(spared, 'call')}`)
  }
  lines.push(...cutLines(agent, configs))
  lines.push(...actionTable(agent, configs))
  return lines
}

function loopText(loop: Loop, number: number, configs: readonly string[]): string[] {
  if (loop.kind === 'runaway') return runawayText(loop, number, configs)
  const first = configs.map(config => `${config}: ${place(loop.firstAction[config] ?? null)}`)
  const saved = configs.map((config) => {
    const { afterNotice, afterStop } = loop.saved[config] ?? { afterNotice: null, afterStop: null }
    return `${config}: ${afterNotice === null ? 'nothing' : tokens(afterNotice)}${afterStop === null ? '' : ` (${tokens(afterStop)} after its stop)`}`
  })
  const heard = loop.callsAfterSaid === null ? '' : `; it went on ${plural(loop.callsAfterSaid, 'call')} after the brake's first notice in the session`
  const span = loop.calls > 0 ? ` (${plural(loop.calls, 'call')}, from call ${loop.begins} a loop)` : ''
  return [
    `    loop ${number}: ${kindOf(loop)}, ${callsOf(loop)}${span}, found by ${loop.foundBy.join('+')}`,
    `      cost ${tokens(loop.tokens)} tokens, ${tokens(loop.wasted)} wasted; saved ${saved.join(' · ')}`,
    `      first brake action within it: ${[...first, `said in the session: ${place(loop.firstSaid)}`].join(' · ')}${heard}`,
  ]
}

/** A response that repeated itself, said once: what it cost, and what each config and the session did to it. */
function runawayText(loop: Loop, number: number, configs: readonly string[]): string[] {
  return [
    `    loop ${number}: a response repeated itself ("${fit(loop.what.replace(/\s+/g, ' ').trim(), 40)}"), ${callsOf(loop)}; cost ${tokens(loop.tokens)} tokens, ${tokens(loop.wasted)} wasted`,
    `      ${[...loop.firstSaid === null ? [] : [cutLive(loop)], ...configs.map(config => `${config}: ${cutUnder(loop, config)}`),
      ...loop.firstSaid === null ? [cutLive(loop)] : []].join(' · ')}`,
  ]
}

/** Each other response that repeats itself (a stricter config's): where each config cuts it, and whether the brake did. */
function cutLines(agent: AgentAnalysis, configs: readonly string[]): string[] {
  return cutRows(agent, configs).map(({ response, callsBefore, under, inSession }) => `    ${responseAt(response, callsBefore)}, repeats itself: ${
    [...under.map((where, column) => `${configs[column]!}: ${where}`), inSession ? 'cut in the session' : 'not cut in the session'].join(' · ')}`)
}

/** Every call where the brake acted under some config, or acted in the session: one column each. */
function actionTable(agent: AgentAnalysis, configs: readonly string[]): string[] {
  const columns = [...configs.map(config => agent.actionsByConfig[config] ?? []), agent.said]
  const calls = [...new Set(columns.flat().map(action => action.call))].sort((a, b) => a - b)
  // Cuts are told with their responses, above.
  const cuts = Object.values(agent.cuts).some(list => list.length > 0) || agent.cutInSession.length > 0
  if (calls.length === 0) return cuts ? [] : ['    the brake does nothing here, under any config, and said nothing in the session']
  const rows = [['call', ...configs, 'said in the session'], ...calls.map(call => [
    String(call), ...columns.map(actions => actions.filter(a => a.call === call).sort(byWeight).map(describe).join('; ') || '–'),
  ])]
  const widths = rows[0]!.map((_, column) => Math.min(60, Math.max(...rows.map(row => row[column]!.length))))
  return rows.map(row => `    ${row.map((cell, column) => column === 0 ? cell.padStart(widths[0]!) : fit(cell, widths[column]!).padEnd(widths[column]!)).join('  ').trimEnd()}`)
}

/** A stop or a refusal first in its cell: a long notice must not push it out of sight. */
function byWeight(a: BrakeAction, b: BrakeAction): number {
  const weight = { stop: 0, refusal: 1, cut: 2, notice: 3 }
  return weight[a.kind] - weight[b.kind]
}

/** A notice by its summary; a refusal's or a stop's reason is in the JSON and the page. */
function describe(action: BrakeAction): string {
  return action.kind === 'notice' ? `notice: ${action.text}` : action.kind
}
