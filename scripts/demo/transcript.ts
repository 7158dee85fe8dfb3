/**
 * Rendering a demo run: a scenario's header, its agent's session log as a transcript (person, model, tool, plugin and
 * brake rows, with colour only on a terminal), a footer tallying calls, notices (a stop's closing notice is counted
 * as the stop), refusals and stops, and a closing summary.
 * A tool's output is shown whole the first time it comes back (the model quotes from it), and as "same output as #N"
 * when it comes back unchanged, which is what the brake is counting. Kept apart from the
 * scenarios so the look of the transcript can change without touching what the scenarios play.
 *
 * Plain Node runs this file (type stripping), so it keeps to erasable TypeScript syntax.
 */
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { stoppedLoopSummary } from '../../src/dsh/readings.ts'
import { CUT_FINISH } from '../../src/dsh/stream.ts'
import type { Scenario } from './scenarios.ts'
import { plural } from '../../src/words/plural.ts'
import { fit } from '../../src/words/text.ts'

const COLOUR = process.stdout.isTTY && process.env['NO_COLOR'] === undefined
// One column short of the terminal: a line that exactly fills it wraps early in some terminals.
// oxlint-disable-next-line typescript/no-unnecessary-condition -- columns is undefined when stdout is not a terminal
const WIDTH = Math.max(72, Math.min((process.stdout.columns ?? 101) - 1, 110))
/** The role column (person, model, tool, plugin, brake, turn) before the gutter. */
const ROLE_WIDTH = 7

/** Each style ends with its own reset code, not the full reset, so a bold tool name keeps its line's colour. */
function paint(on: number, off: number, text: string): string {
  return COLOUR && text !== '' ? `\x1b[${on}m${text}\x1b[${off}m` : text
}

const bold = (text: string): string => paint(1, 22, text)
const dim = (text: string): string => paint(2, 22, text)
const red = (text: string): string => paint(31, 39, text)
const yellow = (text: string): string => paint(33, 39, text)
const cyan = (text: string): string => paint(36, 39, text)

/** The text column: what is left of the width after the role column and the gutter. */
const TEXT_WIDTH = WIDTH - ROLE_WIDTH - 2

/** Length as the terminal shows it: style codes take no room. */
function visible(text: string): number {
  return text.replace(/\x1b\[[0-9;]*m/g, '').length
}

/**
 * A one-line event. `text` may carry styles, so it is never wrapped (a wrap could split a style code); callers
 * budget it to the text column with {@link preview}.
 */
function row(role: string, text: string, style: (text: string) => string = s => s, gutter = '│'): void {
  console.log(`${style(role.padEnd(ROLE_WIDTH))}${dim(gutter)} ${style(text)}`)
}

/** A multi-line event of plain text, word-wrapped into the text column under one role label. */
function block(role: string, text: string, style: (text: string) => string = s => s, gutter = '│'): void {
  wrap(text, TEXT_WIDTH).forEach((part, i) => row(i === 0 ? role : '', part, style, gutter))
}

/** Word-wrap each line of `text` to `width`; continuation lines hang two columns under the line's own indent. */
function wrap(text: string, width: number): string[] {
  const out: string[] = []
  for (const raw of text.split('\n')) {
    // Short lines stay verbatim: tool output keeps its own spacing.
    if (raw.length <= width) {
      out.push(raw)
      continue
    }
    const lead = /^\s*/.exec(raw)?.[0] ?? ''
    let current = ''
    for (const word of raw.trim().split(/\s+/)) {
      if (current !== '' && current.length + 1 + word.length > width) {
        out.push(current)
        current = `${lead}  ${word}`
      } else {
        current = current === '' ? lead + word : `${current} ${word}`
      }
    }
    out.push(current)
  }
  return out
}

/** `prefix` and the first line of `text`, cut to fit the text column, saying how many lines were left out. */
function preview(prefix: string, text: string): string {
  const lines = text.trimEnd().split('\n')
  const more = lines.length - 1
  const marker = more > 0 ? ` (+${more} ${more === 1 ? 'line' : 'lines'})` : ''
  const head = fit(lines[0] ?? '', TEXT_WIDTH - visible(prefix) - marker.length)
  return `${prefix}${head}${dim(marker)}`
}

/** The most lines of one tool output shown; longer outputs say how many more there were. */
const OUTPUT_LINES = 6

/** `text` up to {@link OUTPUT_LINES} lines. */
function shortened(text: string): string {
  const lines = text.trimEnd().split('\n')
  if (lines.length <= OUTPUT_LINES) return lines.join('\n')
  const more = lines.length - OUTPUT_LINES
  return [...lines.slice(0, OUTPUT_LINES), `(+${more} more ${more === 1 ? 'line' : 'lines'})`].join('\n')
}

function textOf(blocks: readonly ContentBlock[]): string {
  return blocks.map(block => block.type === 'text' ? block.text : '').join('')
}

/** Arguments on one line: the model's raw JSON re-serialised, so its spacing does not matter. */
function compactArgs(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw))
  } catch {
    // Malformed arguments are shown as the model sent them.
    return raw.replace(/\s+/g, ' ')
  }
}

/** A compact literal for the header's settings: `mode: 'deny'`, `include: ['read']`. */
function literal(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => `${key}: ${literal(item)}`)
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`
  }
  return String(value)
}

/** What a run's transcript counted, for the footer. */
export interface Tally {
  calls: number
  notices: number
  refusals: number
  stops: number
  /** Responses the brake cut while they streamed. */
  cuts: number
}

/** Print the session log as a transcript and count what happened. */
export function printTranscript(events: readonly SessionEvent[]): Tally {
  const tally: Tally = { calls: 0, notices: 0, refusals: 0, stops: 0, cuts: 0 }
  // How the response being assembled ended: its finish streams before its message.
  let finish = ''
  // Call ids pair each result with its call's name and number.
  const calls = new Map<string, { name: string; index: number }>()
  // Each output text, with the call that first showed it.
  const outputs = new Map<string, number>()
  for (const event of events) {
    switch (event.type) {
      case 'user/message': {
        const message = event.data
        const source = message.source as { kind: string; plugin?: string; summary?: string }
        const text = textOf(message.content)
        if (source.kind === 'user') {
          block('person', text, bold)
        } else if (source.kind === 'plugin' && source.plugin === 'dsh-brake') {
          // The heavy gutter keeps notices recognisable without colour. A stop's closing notice is the stop's own,
          // told in place of the next notice: the stop is counted where the turn ends.
          if (stoppedLoopSummary(source.summary ?? '') === undefined) tally.notices++
          block('brake', `▶ ${source.summary ?? '(no summary)'}`, s => bold(yellow(s)), '┃')
          block('', text.split('\n').map(part => `  ${part}`).join('\n'), yellow, '┃')
        } else {
          row('plugin', preview(`(${source.plugin ?? source.kind}) `, text), dim)
        }
        break
      }
      case 'assistant/chunk':
        if (event.data.chunk.type === 'finish') finish = event.data.chunk.reason.kind
        break
      case 'assistant/message': {
        const reasoning = event.data.message.content.map(part => part.type === 'reasoning' ? part.text : '').join('')
        if (reasoning.trim() !== '') row('model', preview('(reasoning) ', reasoning), dim)
        if (finish === CUT_FINISH) {
          tally.cuts++
          const kept = reasoning.length + textOf(event.data.message.content).length
          block('brake', `✂ response cut while it streamed, after ${kept} characters: the provider's stream was closed`, s => bold(yellow(s)), '┃')
        }
        for (const part of event.data.message.content) {
          if (part.type === 'text' && part.text.trim() !== '') block('model', part.text, cyan)
          if (part.type === 'tool-call') {
            calls.set(part.id, { name: part.name, index: ++tally.calls })
            row('model', preview(`#${tally.calls} ${bold(part.name)} `, compactArgs(part.arguments)), cyan)
          }
        }
        break
      }
      case 'tool/result': {
        const [result] = event.data.message.content
        const which = calls.get(result.toolCallId)
        const label = which === undefined ? '?' : `#${which.index} ${which.name}`
        const text = textOf(result.content)
        const failed = result.isError === true
        if (failed && text.includes('dsh-brake refused this call')) tally.refusals++
        const mark = failed ? '✗' : '✓'
        const style = failed ? red : (part: string): string => part
        const first = outputs.get(text)
        if (first === undefined) {
          if (which !== undefined) outputs.set(text, which.index)
          block('tool', `${label} ${mark} ${shortened(text)}`, style)
        } else {
          row('tool', `${label} ${mark} ${dim(`same output as #${first}`)}`, style)
        }
        break
      }
      case 'turn/end': {
        // A turn that did not complete (an exhausted script, a host error) would otherwise pass unnoticed.
        const { reason } = event.data
        if (reason.kind === 'aborted' && reason.reason.kind === 'hook') {
          // A stop: what the session log keeps, and what the person at the terminal reads.
          tally.stops++
          block('turn', `■ ended by a hook: ${reason.reason.reason}`, s => bold(red(s)), '┃')
        } else if (reason.kind !== 'completed') {
          row('turn', `ended: ${reason.kind === 'error' ? reason.error.message : reason.kind}`, red)
        }
        break
      }
      default:
        break
    }
  }
  return tally
}

/** The scenario's title rule, what it shows, and the settings it runs with. */
export function printHeader(scenario: Scenario): void {
  const title = `━━ ${scenario.name} `
  console.log(bold(title + '━'.repeat(Math.max(0, WIDTH - title.length))))
  for (const part of wrap(scenario.about, WIDTH)) console.log(part)
  const set = Object.entries(scenario.config).map(([key, value]) => `${key}: ${literal(value)}`)
  console.log(dim(`dsh-brake settings: ${set.length === 0 ? 'the defaults' : `${set.join(', ')}, the rest default`}`))
  console.log()
}


/** The tally of a run: calls the model made, how many of them ran, notices and refusals. */
export function printFooter(tally: Tally, ran: number): void {
  console.log()
  const cuts = tally.cuts === 0 ? '' : `, ${plural(tally.cuts, 'response')} cut`
  console.log(bold(`→ ${plural(tally.calls, 'call')} made (${ran} ran), ${plural(tally.notices, 'notice')}, ${plural(tally.refusals, 'refusal')}, ${plural(tally.stops, 'stop')}${cuts}`))
  console.log()
}

/** One closing line over every scenario played, and how to play one alone. */
export function printSummary(tallies: readonly (Tally & { ran: number })[]): void {
  const sum = (pick: (tally: Tally & { ran: number }) => number): number => tallies.reduce((total, tally) => total + pick(tally), 0)
  const played = tallies.length === 1 ? '1 scenario' : `${tallies.length} scenarios`
  console.log(`Summary: ${played}, ${plural(sum(tally => tally.calls), 'call')} made (${sum(tally => tally.ran)} ran), `
    + `${plural(sum(tally => tally.notices), 'notice')}, ${plural(sum(tally => tally.refusals), 'refusal')}, ${plural(sum(tally => tally.stops), 'stop')}, `
    + `${plural(sum(tally => tally.cuts), 'response')} cut. `
    + '`npm run demo -- --help` lists the scenarios.')
}
