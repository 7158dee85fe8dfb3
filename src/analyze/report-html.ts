/**
 * The analysis as one self-contained HTML page (no scripts, no external files): the overview, then each session with
 * something to show, a timeline of its calls per agent with the loops shaded and one row of marks per config. The
 * timeline is SVG on a fixed grid ({@link TIMELINE}), so a screenshot test can find a call by its number.
 * Design: docs/design.md#source-layout; the page: docs/analyze.md#html
 * @module dsh-brake/analyze/report-html
 */
import { LOOP_KINDS } from '../core/kinds.js'
import { plural } from '../words/plural.js'
import { fit } from '../words/text.js'
import { HEARD_WITHIN, type AgentAnalysis, type Analysis, type BrakeAction, type LiveCut, type Loop, type SessionAnalysis, type Tokens } from './analysis.js'
import { figure, tokenCount } from './tokens.js'
import { callsOf, cutAction, cutLive, cutRows, cutUnder, kindOf, place, responseAt, share } from './wording.js'

/** The timeline's grid and colours. */
export const TIMELINE = Object.freeze({
  /** Width of one call's cell, and the distance from one call to the next. */
  cell: 10,
  pitch: 12,
  /** Where call 1 starts, after the row labels. */
  left: 170,
  rowHeight: 18,
  cellHeight: 14,
  colors: Object.freeze({
    call: '#c8ccd2',
    failed: '#8a9099',
    loop: '#f28e2b',
    notice: '#1f6fd1',
    refusal: '#d62728',
    stop: '#111111',
    cut: '#8e44ad',
  }),
})

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d2330; background: #ffffff; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin: 28px 0 4px; } .file { color: #5a6270; font-size: 12px; }
.timeline { overflow-x: auto; margin: 8px 0; } svg text { font: 12px system-ui, sans-serif; fill: #1d2330; }
table { border-collapse: collapse; margin: 6px 0 12px; } td, th { border: 1px solid #d5d9df; padding: 3px 8px; text-align: left; }
.legend span { display: inline-block; margin-right: 16px; } .swatch { display: inline-block; width: 12px; height: 12px; vertical-align: -1px; margin-right: 4px; }
.errors { color: #b00020; } .figures td:first-child { color: #5a6270; } .num { text-align: right; font-variant-numeric: tabular-nums; }
.side { display: flex; gap: 24px; align-items: flex-start; flex-wrap: wrap; } .nowrap { white-space: nowrap; } h3 { font-size: 14px; margin: 16px 0 4px; }
section.session { border-top: 1px solid #d5d9df; margin-top: 24px; }`

/** The page, as one string (for a handful of sessions, and the tests). */
export function htmlReport(analysis: Analysis): string {
  return [...htmlReportParts(analysis)].join('')
}

/** The page, part by part: one session at a time is read back and written. */
export function* htmlReportParts(analysis: Analysis): Generator<string> {
  const { colors } = TIMELINE
  const legend = [
    ['call', colors.call], ['failed call', colors.failed], ['call in a loop', colors.loop],
    ['notice', colors.notice], ['refusal', colors.refusal], ['stop', colors.stop], ['response cut', colors.cut],
  ].map(([label, color]) => `<span><i class="swatch" style="background:${color}"></i>${label}</span>`).join('')
  const errors = analysis.errors.length === 0 ? '' : `<h2>Session logs that could not be read</h2><ul class="errors">${
    analysis.errors.map(error => `<li>${escape(error.file)}: ${escape(error.message)}</li>`).join('')}</ul>`
  yield `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>dsh-brake analyze</title><style>${STYLE}</style></head>
<body>
<h1>dsh-brake analyze: ${plural(analysis.overview.sessions, 'session')}, ${analysis.configs.length === 1 ? 'config' : 'configs'} ${escape(analysis.configs.join(' vs '))}</h1>
${overviewSection(analysis)}
${analysis.sessions.length === 0 ? '' : `<h2>Sessions with loops or brake actions, costliest first</h2>\n<p class="legend">${legend}</p>`}
`
  for (const session of analysis.sessions) yield `${sessionSection(session, analysis.configs)}\n`
  yield `${quietSection(analysis)}
${errors}
</body></html>
`
}

/** The figures over every session, loops by kind, and the costliest loops. */
function overviewSection({ configs, overview: o }: Analysis): string {
  const rows: [string, string][] = [
    ['sessions', `${o.sessions} (${plural(o.agents, 'agent')}, ${plural(o.calls, 'call')}), ${o.sessionsWithLoops} with loops`],
    ['tokens in all', figure(o.tokens)],
    ['in loops', `${figure(o.inLoops)} (${share(o.inLoops, o.tokens)})`],
    ['wasted from each loop\'s first repeat', `${figure(o.wasted)} (${share(o.wasted, o.tokens)})`],
    ...configs.map((config): [string, string] => [`saved under ${config}`,
      `${figure(o.saved[config]!.afterNotice)} after the first notice on each loop; ${figure(o.saved[config]!.afterStop)} for sure after stops and cuts`]),
    ['heard', o.heard.loops === 0 ? 'no live notice on a loop' : `${o.heard.endedSoon} of ${plural(o.heard.loops, 'loop')} the brake spoke on ended within ${HEARD_WITHIN} calls (${share(o.heard.endedSoon, o.heard.loops)})`],
  ]
  const kinds = LOOP_KINDS.map(kind => `<tr><td>${kind}</td><td class="num">${o.loops[kind]}</td></tr>`).join('')
  const costliest = o.costliest.map((loop, index) => `<tr><td class="num">${index + 1}</td><td class="num">${figure(loop.wasted)}</td><td>${escape(kindOf(loop))}</td><td class="nowrap">${
    escape(callsOf(loop))}</td><td><a href="#${anchor(loop.session)}">${escape(loop.session)}</a>${loop.agent === 'main' ? '' : ` (subagent ${escape(loop.agent)})`}</td></tr>`).join('')
  return `<section class="overview"><h2>Overview</h2>
<div class="side"><table class="figures">${rows.map(([label, value]) => `<tr><td>${escape(label)}</td><td>${escape(value)}</td></tr>`).join('')}</table>
<table><tr><th>loop kind</th><th>loops</th></tr>${kinds}</table></div>
<h3>Costliest loops</h3>
${o.costliest.length === 0 ? '<p>No loops found.</p>' : `<table><tr><th></th><th>tokens wasted</th><th>loop</th><th>where</th><th>session</th></tr>${costliest}</table>`}
${o.tokens.estimated ? '<p class="file">~ marks figures estimated from text size, where a log has no usage records.</p>' : ''}</section>`
}

/** One session: its agents with something to show. */
function sessionSection(session: SessionAnalysis, configs: readonly string[]): string {
  return `<section class="session" id="${anchor(session.session)}">
<h2>Session ${escape(session.session)}: ${plural(session.agentCount, 'agent')}, ${plural(session.calls, 'call')}, ${figure(session.tokens)} tokens, ${figure(session.wasted)} wasted in loops</h2>
${session.agents.map(agent => agentSection(agent, configs)).join('\n')}
</section>`
}

/** The quiet sessions: counted, and listed (folded) when asked for. */
function quietSection({ quiet }: Analysis): string {
  const head = `Quiet sessions (no loop, nothing the brake would do or did): ${quiet.count}`
  if (quiet.sessions === undefined || quiet.sessions.length === 0) return `<p>${head}${quiet.count > 0 ? ' (<code>--all</code> lists them)' : ''}.</p>`
  return `<details><summary>${head}</summary><table><tr><th>session</th><th>calls</th><th>tokens</th></tr>${
    quiet.sessions.map(one => `<tr><td>${escape(one.session)}</td><td class="num">${one.calls}</td><td class="num">${figure(one.tokens)}</td></tr>`).join('')}</table></details>`
}

/** The first thing a config does about a loop and what it saves: `notice at call 4, 1200`; for a response, its cut. */
function firstActionText(loop: Loop, config: string): string {
  if (loop.kind === 'runaway') return cutUnder(loop, config)
  return `${place(loop.firstAction[config] ?? null)}, ${savedText(loop.saved[config]?.afterNotice)}`
}

/** What the brake would save of a loop after its first notice, as a figure, or `nothing`. */
function savedText(saved: Tokens | null | undefined): string {
  return saved === null || saved === undefined ? 'nothing' : figure(saved)
}

/** A session's id as a fragment the page can link to. */
function anchor(session: string): string {
  return `session-${session.replace(/[^\w-]/g, '_')}`
}

function agentSection(agent: AgentAnalysis, configs: readonly string[]): string {
  const who = agent.agent === 'main' ? 'main agent' : `subagent ${agent.agent}`
  const loops = agent.loops.length === 0 ? '<p>No loops found.</p>' : `<table><tr><th>loop</th><th>kind</th><th>calls</th><th>cost</th><th>wasted</th>${
    configs.map(config => `<th>${escape(config)}: first action, saved</th>`).join('')}<th>said in the session</th></tr>${
    agent.loops.map((loop, index) => `<tr><td>${index + 1}</td><td>${escape(kindOf(loop))}</td><td>${escape(callsOf(loop))}${loop.calls > 0 ? ` (${loop.calls})` : ''}</td><td class="num">${
      tokens(loop.tokens)}</td><td class="num">${tokens(loop.wasted)}</td>${configs.map(config => `<td>${escape(firstActionText(loop, config))}</td>`).join('')}<td>${
      escape(loop.kind === 'runaway' ? cutLive(loop) : place(loop.firstSaid))}</td></tr>`).join('')}</table>`
  return `<div class="agent" data-session="${escape(agent.session)}" data-agent="${escape(agent.agent)}">
<h3>${escape(who)}: ${agent.calls.length} calls, ${tokens(agent.tokens)}</h3>
<div class="file">${escape(agent.file)}</div>
<div class="timeline">${timeline(agent, configs)}</div>
${loops}
${cutTable(agent, configs)}
</div>`
}

/** The responses that repeat themselves, if any: where each config cuts them, and whether the brake did. */
function cutTable(agent: AgentAnalysis, configs: readonly string[]): string {
  const rows = cutRows(agent, configs).map(({ response, callsBefore, under, inSession }) =>
    `<tr><td>${escape(responseAt(response, callsBefore))}</td>${under.map(place => `<td>${escape(place)}</td>`).join('')}<td>${inSession ? 'cut' : 'not cut'}</td></tr>`)
  if (rows.length === 0) return ''
  return `<table class="cuts"><tr><th>another response repeating itself</th>${
    configs.map(config => `<th>${escape(config)}</th>`).join('')}<th>in the session</th></tr>${rows.join('')}</table>`
}

/** The SVG timeline: the calls row, then one row of marks per config and one for the session itself. */
function timeline(agent: AgentAnalysis, configs: readonly string[]): string {
  const { cell, pitch, left, rowHeight, cellHeight, colors } = TIMELINE
  // A loop of responses sits after a call, and a loop of context text in the steps between calls: they shade none.
  const inLoop = (call: number): boolean => agent.loops.some(loop => loop.calls > 0 && call >= loop.firstCall && call <= loop.lastCall)
  const x = (call: number): number => left + (call - 1) * pitch
  const rows: string[] = [`<text x="0" y="${cellHeight - 2}">calls</text>`]
  for (const call of agent.calls) {
    const color = inLoop(call.call) ? colors.loop : call.failed ? colors.failed : colors.call
    rows.push(`<rect x="${x(call.call)}" y="0" width="${cell}" height="${cellHeight}" fill="${color}"><title>call ${call.call}: ${escape(call.tool)}</title></rect>`)
  }
  // A cut is marked after the call its response came after, on the config's row and the session's.
  const cutMark = (cut: LiveCut): BrakeAction => ({ kind: 'cut', call: cut.callsBefore, text: `${responseAt(cut.response, cut.callsBefore)}: ${cutAction(cut.at, cut.part)}` })
  const markRows: [string, readonly BrakeAction[]][] = [
    ...configs.map((config): [string, readonly BrakeAction[]] => [config, [
      ...agent.actionsByConfig[config] ?? [], ...(agent.cuts[config] ?? []).map(cutMark),
    ]]),
    ['said in the session', [...agent.said, ...agent.cutInSession.map(cutMark)]],
  ]
  markRows.forEach(([label, actions], index) => {
    const top = (index + 1) * rowHeight
    rows.push(`<text x="0" y="${top + cellHeight - 2}">${escape(fit(label, 22))}</text>`)
    // Marks over one call share its cell in bands, top to bottom, so none hides another; a stop's bar runs beside them.
    const atCall = new Map<number, BrakeAction[]>()
    for (const action of actions) if (action.kind !== 'stop') atCall.set(action.call, [...atCall.get(action.call) ?? [], action])
    for (const action of actions) {
      const shared = atCall.get(action.call) ?? [action]
      const band = action.kind === 'stop' ? { top, height: cellHeight } : bandOf(shared.indexOf(action), shared.length, top)
      rows.push(mark(action, Math.max(left, x(action.call)), band))
    }
  })
  const width = left + Math.max(agent.calls.length, 1) * pitch
  const height = (markRows.length + 1) * rowHeight
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${rows.join('')}</svg>`
}

/** The band of a row's cell the `index`th of `count` marks over one call takes: the whole cell for a mark alone. */
function bandOf(index: number, count: number, top: number): { top: number; height: number } {
  const height = TIMELINE.cellHeight / count
  return { top: top + index * height, height }
}

/** What a mark says on hover: a notice and a stop come after their call, a refusal is that call's own. */
function hoverText(action: BrakeAction): string {
  if (action.kind === 'cut') return action.text
  if (action.kind === 'refusal') return `call ${action.call} refused: ${action.text}`
  return `${action.kind} after call ${action.call}: ${action.text}`
}

/** A notice's dot, a refusal's square, a stop's bar or a cut's triangle, over the call it follows, in `band` of the cell. */
function mark(action: BrakeAction, x: number, band: { top: number; height: number }): string {
  const { cell, colors } = TIMELINE
  const { top, height } = band
  const title = `<title>${escape(hoverText(action))}</title>`
  if (action.kind === 'cut') return `<polygon points="${x},${top + height} ${x + cell / 2},${top} ${x + cell},${top + height}" fill="${colors.cut}">${title}</polygon>`
  if (action.kind === 'notice') return `<circle cx="${x + cell / 2}" cy="${top + height / 2}" r="${Math.min(cell, height) / 2}" fill="${colors.notice}">${title}</circle>`
  if (action.kind === 'refusal') return `<rect x="${x}" y="${top}" width="${cell}" height="${height}" fill="${colors.refusal}">${title}</rect>`
  return `<rect x="${x + cell - 3}" y="${top - 2}" width="4" height="${height + 4}" fill="${colors.stop}">${title}</rect>`
}

function tokens(value: Tokens): string {
  return tokenCount(value, 'estimated')
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}
