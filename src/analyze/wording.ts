/**
 * The phrases the text report and the HTML page share, so the two say the same thing the same way.
 * @module dsh-brake/analyze/wording
 */
import { fit } from '../words/text.js'
import type { AgentAnalysis, BrakeAction, Loop, ResponseCut, Tokens } from './analysis.js'
import { figureOf } from './tokens.js'

/** Where an action falls, as "notice at call 4", or "none". */
export function place(action: BrakeAction | null): string {
  return action === null ? 'none' : `${action.kind} at call ${action.call}`
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
  switch (loop.kind) {
    case 'identical-calls': return `identical calls (${what})`
    case 'cycle': return `cycle of ${loop.period} calls (${what})`
    case 'same-ground': return `same ground, lap of ${loop.period} calls (${what})`
    case 'same-error': return `same error (${what})`
    case 'duplicate-text': return `duplicate text ("${what}")`
    case 'same-response': return `same response ("${what}")`
    case 'runaway': return `runaway response ("${what}")`
    case 'edit-revert': return `edit revert, edits undoing each other (${what})`
    case 'same-failure': return `same failure after every fix (${what})`
    case 'near-duplicate': return `near-duplicate calls (${what})`
    case 'rereading': return `rereading, paging over old ground (${what})`
  }
}

/** Where a loop is: `calls 12–60`, or `after call 12` for one that is not made of calls. */
export function callsOf(loop: Loop): string {
  if (loop.kind === 'runaway') return `after call ${loop.firstCall}`
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
  const after = figureOf(cut.tokensAfter, cut.estimated)
  const unit = fit(cut.unit.replace(/\s+/g, ' ').trim(), 40)
  return `cut in the ${cut.part === 'text' ? 'answer' : 'reasoning'} at ${cut.at} characters ("${unit}" × ${cut.copies}), ${after} output tokens after`
}
