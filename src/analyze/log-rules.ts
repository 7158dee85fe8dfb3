/**
 * The plain rules `analyze` finds the kinds of loop by that the labelling rule does not name: one error across
 * arguments, a context text claimed again and again, the same response step after step, a response repeating itself
 * as it streams. Each is as independent of the brake as the labelling rule is.
 * Design: docs/design.md#loop-kinds; the rules: docs/analyze.md#what-is-reported
 * @module dsh-brake/analyze/log-rules
 */
import type { Action } from '../replay/actions.js'
import type { AgentEvent } from '../replay/agent-events.js'
import type { CallFacts } from '../replay/label/facts.js'
import type { Episode } from '../replay/label/rules.js'
import type { RecordedCall, RecordedResponse } from '../replay/session-recording.js'
import { CUT_FINISH } from '../dsh/stream.js'
import type { LoopKind } from '../core/kinds.js'
import type { BrakeAction, LiveCut, ResponseCut, Tokens } from './analysis.js'
import { scaleSpent, stepsSpent, type Pieces, type Spent } from './pieces.js'
import { liveCut, responseChars } from './response-cuts.js'
import { charsAsTokens, estimateTokens, outputTokens } from './tokens.js'
import { cutAction } from './wording.js'

/** `same-error`: failures with the same error, across at least two sets of arguments. */
export const SAME_ERRORS = 3
/** `duplicate-text`: copies of one context text, and the least length that counts. */
export const TEXT_COPIES = 3
export const TEXT_MIN = 80
/** `same-response`: the same answer this many responses in a row. */
export const SAME_RESPONSES = 3

/** What one agent's loops are found and priced from. */
export interface LoopInput {
  readonly session: string
  readonly agent: string
  readonly events: readonly AgentEvent[]
  readonly recorded: readonly RecordedCall[]
  readonly facts: readonly CallFacts[]
  readonly episodes: readonly Episode[]
  /** What the agent's tokens are made of, which its loops spend (pieces.ts). */
  readonly pieces: Pieces
  readonly responses: readonly RecordedResponse[]
  /** Per config, the brake's actions under it (0-based calls, in call order). */
  readonly replayed: Readonly<Record<string, readonly Action[]>>
  /** Per config, the responses it would cut; and the cuts under the default thresholds (`runaway`). */
  readonly cuts: Readonly<Record<string, readonly ResponseCut[]>>
  readonly defaultCuts: readonly ResponseCut[]
  /** What the brake did live. */
  readonly said: readonly Action[]
}

/** A loop's place and what it is, before it is priced. */
export interface Found {
  readonly kind: LoopKind
  readonly foundBy: readonly LoopKind[]
  readonly period: number | null
  readonly what: string
  /** 0-based calls, as the labelling rule counts them. */
  readonly episode: Episode
  /** What it spent, and wasted; what the brake would save under a config (undefined: priced from its calls). */
  readonly priced?: { readonly tokens: Spent; readonly wasted: Spent; readonly saved: (config: string) => SavedSpent }
  /** A response repeating itself: the response, and the cut that acts on it under a config and in the session. */
  readonly cut?: {
    readonly response: number
    readonly under: (config: string) => BrakeAction | null
    readonly inSession: BrakeAction | null
  }
  /** The first response of a loop of responses. */
  readonly response?: number
}

/** What the brake would save of a loop under one config, as the pieces it spares. */
export interface SavedSpent {
  readonly afterNotice: Spent | null
  readonly afterStop: Spent | null
}

/** The loops the plain rules find in one agent's log; `callEpisodes` are the call loops, which one error never joins. */
export function logRuleLoops(input: LoopInput, callEpisodes: readonly Episode[]): Found[] {
  return [...sameErrorLoops(input, callEpisodes), ...duplicateTextLoops(input), ...repeatedResponseLoops(input), ...cutLoops(input)]
}

/** `same-error`: one tool failing the same way across arguments, outside the call loops. */
function sameErrorLoops({ agent, recorded }: LoopInput, callEpisodes: readonly Episode[]): Found[] {
  const found: Found[] = []
  const chains = new Map<string, { error: string; calls: RecordedCall[]; args: Set<string> }>()
  const close = (tool: string): void => {
    const chain = chains.get(tool)
    chains.delete(tool)
    if (chain === undefined || chain.calls.length < SAME_ERRORS || chain.args.size < 2) return
    const start = chain.calls[0]!.index
    const end = chain.calls.at(-1)!.index
    if (callEpisodes.some(episode => start <= episode.end && end >= episode.start)) return
    found.push({
      kind: 'same-error', foundBy: ['same-error'], period: null, what: `${tool}: ${chain.error}`,
      episode: episodeOf(agent, start, chain.calls[1]!.index, end, chain.calls[SAME_ERRORS - 1]!.index),
    })
  }
  for (const call of recorded) {
    const chain = chains.get(call.tool)
    if (!call.isError) {
      close(call.tool)
      continue
    }
    const error = firstLine(call.text)
    if (chain !== undefined && chain.error !== error) close(call.tool)
    const open = chains.get(call.tool) ?? { error, calls: [], args: new Set<string>() }
    open.calls.push(call)
    open.args.add(JSON.stringify(call.args))
    chains.set(call.tool, open)
  }
  for (const tool of [...chains.keys()]) close(tool)
  return found
}

/** `duplicate-text`: the same context text claimed in several steps (a hook's reminder, another plugin's note). */
function duplicateTextLoops({ agent, events, pieces }: LoopInput): Found[] {
  const texts = new Map<string, { copies: number[]; steps: string[]; ids: Set<string>; chars: number }>()
  let calls = 0
  for (const event of events) {
    if (event.kind === 'call') calls++
    if (event.kind !== 'step') continue
    for (const context of event.contexts) {
      const text = context.texts.join('\n').replace(/\s+/g, ' ').trim()
      if (text.length < TEXT_MIN) continue
      const entry = texts.get(text) ?? { copies: [], steps: [], ids: new Set<string>(), chars: text.length }
      // A message claimed again under the same id is the same copy, seen again.
      if (entry.ids.has(context.id)) continue
      entry.ids.add(context.id)
      entry.copies.push(calls)
      entry.steps.push(event.id ?? '')
      texts.set(text, entry)
    }
  }
  const found: Found[] = []
  for (const [text, { copies, steps, chars }] of texts) {
    if (copies.length < TEXT_COPIES) continue
    // Each copy went into the context of the step that claimed it.
    const copy = estimateTokens(chars, 0)
    const spent = (from: number): Spent => stepsSpent(pieces, steps.slice(from).map(step => ({ step, tokens: copy })))
    found.push({
      kind: 'duplicate-text', foundBy: ['duplicate-text'], period: null, what: text,
      episode: episodeOf(agent, copies[0]! - 1, copies[1]! - 1, copies.at(-1)! - 1, copies[TEXT_COPIES - 1]! - 1),
      priced: { tokens: spent(0), wasted: spent(1), saved: () => NOTHING_SAVED },
    })
  }
  return found
}

/** `same-response`: the same answer, response after response. */
function repeatedResponseLoops({ agent, responses, pieces }: LoopInput): Found[] {
  const found: Found[] = []
  let run: RecordedResponse[] = []
  const close = (): void => {
    if (run.length >= SAME_RESPONSES) {
      const labelledAt = run[SAME_RESPONSES - 1]!.callsBefore - 1
      const cost = (list: readonly RecordedResponse[]): Spent => stepsSpent(pieces, list.map(responseSpent))
      found.push({
        kind: 'same-response', foundBy: ['same-response'], period: null, what: visibleText(run[0]!), response: run[0]!.index + 1,
        episode: episodeOf(agent, run[0]!.callsBefore - 1, run[1]!.callsBefore - 1, run.at(-1)!.callsBefore - 1, labelledAt),
        priced: { tokens: cost(run), wasted: cost(run.slice(1)), saved: () => NOTHING_SAVED },
      })
    }
    run = []
  }
  for (const response of responses) {
    const text = visibleText(response)
    if (text === '' || (run.length > 0 && visibleText(run[0]!) !== text)) close()
    if (text !== '') run.push(response)
  }
  close()
  return found
}

/** `runaway`: the responses that repeat themselves as they stream (the defaults' watch), and those the brake cut. */
function cutLoops({ agent, responses, cuts, defaultCuts, pieces }: LoopInput): Found[] {
  const found: Found[] = []
  for (const response of responses) {
    const number = response.index + 1
    const cut = defaultCuts.find(each => each.response === number)
    const inSession = cut?.cutInSession ?? response.finish === CUT_FINISH
    if (cut === undefined && !inSession) continue
    const chars = responseChars(response)
    const spent = stepsSpent(pieces, [responseSpent(response)])
    // From its first repeat on, by the share of characters; a cut made live left little after it.
    const share = cut === undefined || chars === 0 ? 0 : (chars - cut.repeatsFrom) / chars
    const call = response.callsBefore - 1
    const under = (config: string): ResponseCut | undefined => cuts[config]?.find(each => each.response === number)
    found.push({
      kind: 'runaway', foundBy: ['runaway'], period: null, what: cut?.unit ?? '', response: number,
      episode: episodeOf(agent, call, call, call, call),
      priced: {
        tokens: spent, wasted: scaleSpent(spent, share),
        saved: (config) => {
          const at = under(config)
          if (at === undefined) return NOTHING_SAVED
          // A cut saves for sure what the response streamed past it: no notice to be heeded, nothing to wait for.
          const afterCut = stepsSpent(pieces, [{ step: response.step, tokens: outputTokens(at.tokensAfter, at.estimated) }])
          return { afterNotice: afterCut, afterStop: afterCut }
        },
      },
      cut: {
        response: number,
        under: (config) => {
          const at = under(config)
          return at === undefined ? null : cutAsAction(at)
        },
        inSession: inSession ? cutAsAction(liveCut(response)) : null,
      },
    })
  }
  return found
}

/** A cut (a config's, or the session's) as an action: after the call its response came after, saying where it fell. */
function cutAsAction(cut: LiveCut): BrakeAction {
  return { kind: 'cut', call: cut.callsBefore, text: cutAction(cut.at, cut.part) }
}

/** A loop's place in the agent's calls (0-based), for one of this module's own rules. */
function episodeOf(agent: string, start: number, begins: number, end: number, labelledAt: number): Episode {
  return { agent, start, begins, end, labelledAt, foundBy: [], period: 0 }
}

/** Nothing the brake would save: what a loop it never acts on by a notice is priced with. */
const NOTHING_SAVED: SavedSpent = { afterNotice: null, afterStop: null }


/** A response's output tokens, in the step that streamed it. */
function responseSpent(response: RecordedResponse): { step: string; tokens: Tokens } {
  return { step: response.step, tokens: responseTokens(response) }
}

/** A response's output tokens: as reported, or its characters as tokens. */
function responseTokens(response: RecordedResponse): Tokens {
  return outputTokens(response.outputTokens ?? charsAsTokens(responseChars(response)), response.outputTokens === undefined)
}

/** A response's answer, whitespace folded. */
function visibleText(response: RecordedResponse): string {
  return response.blocks.filter(block => block.part === 'text').map(block => block.deltas.join('')).join('').replace(/\s+/g, ' ').trim()
}

function firstLine(text: string): string {
  return (text.split('\n').find(line => line.trim() !== '') ?? '').trim().slice(0, 200)
}

