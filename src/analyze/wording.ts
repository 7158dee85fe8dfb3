/**
 * The phrases the text report and the HTML page share, so the two say the same thing the same way.
 * @module dsh-brake/analyze/wording
 */
import { KINDS } from '../core/kinds.js'
import { fill } from '../words/template.js'
import { fit } from '../words/text.js'
import type { AgentAnalysis, BrakeAction, Loop, ResponseCut, Tokens } from './analysis.js'
import { figureOf } from './tokens.js'

/** Where an action falls, as "notice at call 4", a cut as where it fell in its response, or "none". */
export function place(action: BrakeAction | null): string {
  if (action === null) return 'none'
  return action.kind === 'cut' ? action.text : `${action.kind} at call ${action.call}`
}

/** Where a cut falls in a response: `cut at 8,252 characters, in its reasoning`. */
export function cutAction(chars: number, part: 'text' | 'reasoning'): string {
  return `cut at ${chars.toLocaleString('en-US')} characters, in its ${part === 'text' ? 'answer' : 'reasoning'}`
}

/**
 * What a config does to a response repeating itself (a `runaway` loop): `cut at 8,252 characters, in its reasoning,
 * ~1500 output tokens saved`, or `not cut`; for a response the brake cut in the session, only whether it would too
 * (what streamed past its cut was never written).
 */
export function cutUnder(loop: Loop, config: string): string {
  const action = loop.firstAction[config] ?? null
  if (loop.firstSaid !== null) return action === null ? 'would not cut it' : 'cuts it too'
  if (action === null) return 'not cut'
  const saved = loop.saved[config]?.afterNotice
  return saved === null || saved === undefined ? action.text : `${action.text}, ${figureOf(saved.total, saved.estimated)} output tokens saved`
}

/** What the brake did to a response repeating itself in the session: `cut in the session at 8,192 characters, in its answer`. */
export function cutLive(loop: Loop): string {
  return loop.firstSaid === null ? 'not cut in the session' : loop.firstSaid.text.replace(/^cut /, 'cut in the session ')
}

/** `part` as a share of `whole`: `8.1 %` (`–` of nothing). */
export function share(part: Tokens | number, whole: Tokens | number): string {
  const of = typeof whole === 'number' ? whole : whole.total
  const is = typeof part === 'number' ? part : part.total
  return of === 0 ? '–' : `${(is / of * 100).toFixed(1)} %`
}

/**
 * A loop's kind, in the words its id is made of, and what repeats in it: `cycle of 4 calls (read → grep → read →
 * bash)`, `identical calls (read)`.
 */
export function kindOf(loop: Loop): string {
  const what = fit(loop.what.replace(/\s+/g, ' ').trim(), 80)
  return fill(KINDS[loop.kind].report, { what, period: String(loop.period) })
}

/**
 * Where a loop is: `calls 12–60`; a loop of responses by its response and the call it came after, `response 5, after
 * call 12`, `from response 3, after calls 4–6`; a context text by the steps that claimed it, `claimed after calls 4–9`.
 */
export function callsOf(loop: Loop): string {
  if (loop.response !== null) return `${loop.kind === 'runaway' ? 'response' : 'from response'} ${loop.response}, ${afterCalls(loop.firstCall, loop.lastCall)}`
  if (loop.kind === 'duplicate-text') return `claimed ${afterCalls(loop.firstCall, loop.lastCall)}`
  return loop.firstCall === loop.lastCall ? `call ${loop.firstCall}` : `calls ${loop.firstCall}–${loop.lastCall}`
}

/** `after call 12`, `after calls 4–6`; call 0 is before the agent's first call. */
function afterCalls(first: number, last: number): string {
  const after = (call: number): string => call === 0 ? 'before the first call' : `after call ${call}`
  if (first === last) return after(first)
  return first === 0 ? `from before the first call to after call ${last}` : `after calls ${first}–${last}`
}

/** A response, as the reports place it: `response 5, after call 12`. */
export function responseAt(response: number, callsBefore: number): string {
  return `response ${response}, ${afterCalls(callsBefore, callsBefore)}`
}

/** A response that repeats itself, as both reports list it: where each config cuts it, and whether the brake did. */
export interface CutRow {
  readonly response: number
  readonly callsBefore: number
  /** Per config, in order: where it cuts (`cutPlace`). */
  readonly under: readonly string[]
  readonly inSession: boolean
}

/**
 * The responses of an agent that some config would cut, or the brake cut in the session, in order: those that are not
 * already told as a `runaway` loop (a config stricter than the defaults cuts responses the defaults would not).
 */
export function cutRows(agent: AgentAnalysis, configs: readonly string[]): CutRow[] {
  const told = new Set(agent.loops.filter(loop => loop.kind === 'runaway').map(loop => loop.response))
  const all = [...Object.values(agent.cuts).flat(), ...agent.cutInSession].filter(cut => !told.has(cut.response))
  const numbers = [...new Set(all.map(cut => cut.response))].sort((a, b) => a - b)
  return numbers.map(response => ({
    response,
    callsBefore: all.find(cut => cut.response === response)!.callsBefore,
    under: configs.map(config => cutPlace(agent.cuts[config]?.find(cut => cut.response === response))),
    inSession: agent.cutInSession.some(cut => cut.response === response),
  }))
}

/** Where a config cuts a response: `cut at 3,150 characters, in its reasoning ("not called," × 250), ~61000 output tokens saved`. */
function cutPlace(cut: ResponseCut | undefined): string {
  if (cut === undefined) return 'not cut'
  const after = figureOf(cut.tokensAfter, cut.estimated)
  const unit = fit(cut.unit.replace(/\s+/g, ' ').trim(), 40)
  return `${cutAction(cut.at, cut.part)} ("${unit}" × ${cut.copies}), ${after} output tokens saved`
}
