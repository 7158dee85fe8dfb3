/**
 * The analysis as one self-contained HTML page (no scripts, no external files): per session and agent, a timeline of
 * its calls in order, the loops shaded, and one row of marks per config (and one for what the brake said in the
 * session): a dot for a notice, a square for a refusal, a bar for a stop. Below it, the loops with their cost.
 *
 * The timeline is SVG drawn on a fixed grid ({@link TIMELINE}), so a screenshot test can find a call by its number.
 * @module dsh-brake/analyze/report-html
 */
import { plural } from '../plural.js'
import { fit } from '../text.js'
import type { AgentAnalysis, Analysis, BrakeAction, Tokens } from './analysis.js'
import { cutRows, place, tokenCount } from './wording.js'

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
  }),
})

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d2330; background: #ffffff; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin: 28px 0 4px; } .file { color: #5a6270; font-size: 12px; }
.timeline { overflow-x: auto; margin: 8px 0; } svg text { font: 12px system-ui, sans-serif; fill: #1d2330; }
table { border-collapse: collapse; margin: 6px 0 12px; } td, th { border: 1px solid #d5d9df; padding: 3px 8px; text-align: left; }
.legend span { display: inline-block; margin-right: 16px; } .swatch { display: inline-block; width: 12px; height: 12px; vertical-align: -1px; margin-right: 4px; }
.errors { color: #b00020; }`

/** The page. */
export function htmlReport(analysis: Analysis): string {
  const { colors } = TIMELINE
  const legend = [
    ['call', colors.call], ['failed call', colors.failed], ['call in a loop', colors.loop],
    ['notice', colors.notice], ['refusal', colors.refusal], ['stop', colors.stop],
  ].map(([label, color]) => `<span><i class="swatch" style="background:${color}"></i>${label}</span>`).join('')
  const errors = analysis.errors.length === 0 ? '' : `<h2>Session logs that could not be read</h2><ul class="errors">${
    analysis.errors.map(error => `<li>${escape(error.file)}: ${escape(error.message)}</li>`).join('')}</ul>`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>dsh-brake analyze</title><style>${STYLE}</style></head>
<body>
<h1>dsh-brake analyze: ${plural(analysis.agents.length, 'agent')}, ${analysis.configs.length === 1 ? 'config' : 'configs'} ${escape(analysis.configs.join(' vs '))}</h1>
<p class="legend">${legend}</p>
${analysis.agents.map(agent => agentSection(agent, analysis.configs)).join('\n')}
${errors}
</body></html>
`
}

function agentSection(agent: AgentAnalysis, configs: readonly string[]): string {
  const who = agent.agent === 'main' ? 'main agent' : `subagent ${agent.agent}`
  const loops = agent.loops.length === 0 ? '<p>No loops found.</p>' : `<table><tr><th>loop</th><th>kind</th><th>calls</th><th>cost</th>${
    configs.map(config => `<th>${escape(config)}: first action</th>`).join('')}<th>said in the session</th></tr>${
    agent.loops.map((loop, index) => `<tr><td>${index + 1}</td><td>${loop.kind}</td><td>${loop.firstCall}–${loop.lastCall} (${loop.calls})</td><td>${
      tokens(loop.tokens)}</td>${configs.map(config => `<td>${place(loop.firstAction[config] ?? null)}</td>`).join('')}<td>${place(loop.firstSaid)}</td></tr>`).join('')}</table>`
  return `<section data-session="${escape(agent.session)}" data-agent="${escape(agent.agent)}">
<h2>Session ${escape(agent.session)}, ${escape(who)}: ${agent.calls.length} calls, ${tokens(agent.tokens)}</h2>
<div class="file">${escape(agent.file)}</div>
<div class="timeline">${timeline(agent, configs)}</div>
${loops}
${cutTable(agent, configs)}
</section>`
}

/** The responses that repeat themselves, if any: where each config cuts them, and whether the brake did. */
function cutTable(agent: AgentAnalysis, configs: readonly string[]): string {
  const rows = cutRows(agent, configs).map(({ response, callsBefore, under, inSession }) =>
    `<tr><td>${response}</td><td>${callsBefore}</td>${under.map(place => `<td>${escape(place)}</td>`).join('')}<td>${inSession ? 'cut' : 'not cut'}</td></tr>`)
  if (rows.length === 0) return ''
  return `<table class="cuts"><tr><th>response repeating itself</th><th>after call</th>${
    configs.map(config => `<th>${escape(config)}</th>`).join('')}<th>in the session</th></tr>${rows.join('')}</table>`
}

/** The SVG timeline: the calls row, then one row of marks per config and one for the session itself. */
function timeline(agent: AgentAnalysis, configs: readonly string[]): string {
  const { cell, pitch, left, rowHeight, cellHeight, colors } = TIMELINE
  const inLoop = (call: number): boolean => agent.loops.some(loop => call >= loop.firstCall && call <= loop.lastCall)
  const x = (call: number): number => left + (call - 1) * pitch
  const rows: string[] = [`<text x="0" y="${cellHeight - 2}">calls</text>`]
  for (const call of agent.calls) {
    const color = inLoop(call.call) ? colors.loop : call.failed ? colors.failed : colors.call
    rows.push(`<rect x="${x(call.call)}" y="0" width="${cell}" height="${cellHeight}" fill="${color}"><title>call ${call.call}: ${escape(call.tool)}</title></rect>`)
  }
  const markRows: [string, readonly BrakeAction[]][] = [...configs.map(config => [config, agent.brake[config] ?? []] as [string, readonly BrakeAction[]]), ['said in the session', agent.said]]
  markRows.forEach(([label, actions], index) => {
    const top = (index + 1) * rowHeight
    rows.push(`<text x="0" y="${top + cellHeight - 2}">${escape(fit(label, 22))}</text>`)
    for (const action of actions) rows.push(mark(action, Math.max(left, x(action.call)), top))
  })
  const width = left + Math.max(agent.calls.length, 1) * pitch
  const height = (markRows.length + 1) * rowHeight
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${rows.join('')}</svg>`
}

/** A notice's dot, a refusal's square or a stop's bar, over the call it follows. */
function mark(action: BrakeAction, x: number, top: number): string {
  const { cell, cellHeight, colors } = TIMELINE
  const title = `<title>${action.kind} after call ${action.call}: ${escape(action.text)}</title>`
  if (action.kind === 'notice') return `<circle cx="${x + cell / 2}" cy="${top + cellHeight / 2}" r="${cell / 2}" fill="${colors.notice}">${title}</circle>`
  if (action.kind === 'refusal') return `<rect x="${x}" y="${top}" width="${cell}" height="${cellHeight}" fill="${colors.refusal}">${title}</rect>`
  return `<rect x="${x + cell - 3}" y="${top - 2}" width="4" height="${cellHeight + 4}" fill="${colors.stop}">${title}</rect>`
}

function tokens(value: Tokens): string {
  return tokenCount(value, 'estimated')
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}
