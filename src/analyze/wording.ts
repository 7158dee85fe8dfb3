/**
 * The phrases the text report and the HTML page share, so the two say the same thing the same way.
 * @module dsh-brake/analyze/wording
 */
import { fit } from '../text.js'
import type { AgentAnalysis, BrakeAction, Loop, ResponseCut, Tokens } from './analysis.js'

/** Where an action falls, as "notice at call 4", or "none". */
export function place(action: BrakeAction | null): string {
  return action === null ? 'none' : `${action.kind} at call ${action.call}`
}

/** A token count; an estimate is marked `~`, with `how` in parentheses after it. */
export function tokenCount(value: Tokens, how: string): string {
  return value.estimated ? `~${value.total} tokens (${how})` : `${value.total} tokens`
}

/** A token count in a sentence of figures: `12345`, or `~12345` for an estimate. */
export function tokens(value: Tokens): string {
  return `${value.estimated ? '~' : ''}${value.total}`
}

/** `part` as a share of `whole`: `8.1 %` (`–` of nothing). */
export function share(part: Tokens | number, whole: Tokens | number): string {
  const of = typeof whole === 'number' ? whole : whole.total
  const is = typeof part === 'number' ? part : part.total
  return of === 0 ? '–' : `${(is / of * 100).toFixed(1)} %`
}

/** A loop's shape and what repeats in it: `cycle of 4 (read → grep → read → bash)`, `repeated call (read)`. */
export function shapeOf(loop: Loop): string {
  const what = fit(loop.what.replace(/\s+/g, ' ').trim(), 80)
  switch (loop.shape) {
    case 'identical-calls': return `repeated call (${what})`
    case 'cycle': return `cycle of ${loop.period} (${what})`
    case 'same-ground': return `lap of ${loop.period} (${what})`
    case 'same-error': return `same error (${what})`
    case 'duplicate-text': return `duplicate text ("${what}")`
    case 'same-response': return `repeated response ("${what}")`
    case 'runaway': return `response repeating itself ("${what}")`
    case 'near-duplicate': return `near-duplicate calls (${what})`
    case 'rereading': return `paging over old ground (${what})`
  }
}

/** Where a loop is: `calls 12–60`, or `after call 12` for one that is not made of calls. */
export function callsOf(loop: Loop): string {
  if (loop.shape === 'runaway') return `after call ${loop.firstCall}`
  return loop.firstCall === loop.lastCall ? `call ${loop.firstCall}` : `calls ${loop.firstCall}–${loop.lastCall}`
}

/** A response that repeats itself, as both reports list it: where each config cuts it, and whether the brake did. */
export interface CutRow {
  readonly response: number
  readonly callsBefore: number
  /** Per config, in order: where it cuts (`cutPlace`). */
  readonly under: readonly string[]
  readonly inSession: boolean
}

/** The responses of an agent that some config would cut, or the brake cut in the session, in order. */
export function cutRows(agent: AgentAnalysis, configs: readonly string[]): CutRow[] {
  const all = [...Object.values(agent.cuts).flat(), ...agent.cutInSession]
  const numbers = [...new Set(all.map(cut => cut.response))].sort((a, b) => a - b)
  return numbers.map(response => ({
    response,
    callsBefore: all.find(cut => cut.response === response)!.callsBefore,
    under: configs.map(config => cutPlace(agent.cuts[config]?.find(cut => cut.response === response))),
    inSession: agent.cutInSession.some(cut => cut.response === response),
  }))
}

/** Where a config cuts a response: `cut in the reasoning at 3150 characters ("not called," × 250), ~61000 output tokens after`. */
function cutPlace(cut: ResponseCut | undefined): string {
  if (cut === undefined) return 'not cut'
  const after = cut.estimated ? `~${cut.tokensAfter}` : String(cut.tokensAfter)
  const unit = fit(cut.unit.replace(/\s+/g, ' ').trim(), 40)
  return `cut in the ${cut.part === 'text' ? 'answer' : 'reasoning'} at ${cut.at} characters ("${unit}" × ${cut.copies}), ${after} output tokens after`
}
