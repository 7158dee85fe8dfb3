/**
 * What an agent's tokens are made of, piece by piece, and which pieces each loop spends: the agent's tokens, a loop's
 * cost and the agent's tokens in loops are all added up from the same pieces, so none can exceed the figure it is part
 * of. A piece is a call's share of its model step (`call <n>`), or what of a step no call carries (`step <turn/step>`):
 * a step that reported its usage and asked for no call (an answer), or, for a step that reported none, its response's
 * characters and the context text it claimed, estimated. A loop spends whole calls, or an amount of a step (a
 * response's output, a context text's copy), which sits in that step's calls when it reported usage and asked for
 * some, else in the step's own piece; never more of a piece than it holds (a copy's tokens are an estimate, the step's
 * a report). Where loops overlap, the agent's tokens in loops count each piece once.
 * Design: docs/analyze.md#what-is-reported
 * @module dsh-brake/analyze/pieces
 */
import type { AgentEvent } from '../replay/agent-events.js'
import type { RecordedResponse, StepUsage } from '../replay/session-recording.js'
import type { Tokens } from './analysis.js'
import { responseChars } from './response-cuts.js'
import { estimateTokens, reportedTokens, sum, tokensOf } from './tokens.js'

/** An agent's pieces, and where an amount of one of its steps sits. */
export interface Pieces {
  /** Every piece's tokens, by its key: together, the agent's tokens. */
  readonly tokens: ReadonlyMap<string, Tokens>
  /** The pieces an amount of `step`'s tokens sits in. */
  readonly of: (step: string) => readonly string[]
}

/** What a loop spends: an amount of each piece it touches. */
export type Spent = ReadonlyMap<string, Tokens>

/** What the pieces are made from: each call's step and tokens (in call order), the steps' usage, responses, events. */
export interface PieceSource {
  readonly calls: readonly { readonly step: string; readonly tokens: Tokens }[]
  readonly usage: ReadonlyMap<string, StepUsage>
  readonly responses: readonly RecordedResponse[]
  readonly events: readonly AgentEvent[]
}

/** The key of call `index` (0-based). */
export function callPiece(index: number): string {
  return `call ${index}`
}

function stepPiece(step: string): string {
  return `step ${step}`
}

/** An agent's pieces. */
export function piecesOf({ calls, usage, responses, events }: PieceSource): Pieces {
  const tokens = new Map<string, Tokens>()
  const callsOfStep = new Map<string, string[]>()
  calls.forEach((call, index) => {
    tokens.set(callPiece(index), call.tokens)
    callsOfStep.set(call.step, [...callsOfStep.get(call.step) ?? [], callPiece(index)])
  })
  for (const [step, used] of usage) if (!callsOfStep.has(step)) tokens.set(stepPiece(step), reportedTokens(used))
  // A step that reported nothing: what went into its context besides results, and what the model wrote besides calls.
  const estimated = new Map<string, { input: number; output: number }>()
  const add = (step: string, input: number, output: number): void => {
    if (usage.has(step)) return
    const chars = estimated.get(step) ?? { input: 0, output: 0 }
    estimated.set(step, { input: chars.input + input, output: chars.output + output })
  }
  const unsent = neverAnswered(responses, callsOfStep)
  for (const response of responses) if (!unsent.has(response.step)) add(response.step, 0, responseChars(response))
  for (const event of events) {
    // What a step claimed went to the model with its request; a request that failed with no output (no API key, a
    // provider that refused it) spent nothing.
    if (event.kind === 'step' && event.id !== undefined && !unsent.has(event.id)) {
      add(event.id, event.contexts.reduce((chars, context) => chars + context.texts.join('\n').length, 0), 0)
    }
  }
  for (const [step, { input, output }] of estimated) tokens.set(stepPiece(step), estimateTokens(input, output))
  return {
    tokens,
    of: step => usage.has(step) ? callsOfStep.get(step) ?? [stepPiece(step)] : [stepPiece(step)],
  }
}

/** The steps whose every response failed before writing anything (finish `error`, no text), that asked for no call. */
function neverAnswered(responses: readonly RecordedResponse[], callsOfStep: ReadonlyMap<string, readonly string[]>): Set<string> {
  const failed = new Set<string>()
  for (const response of responses) if (response.finish === 'error' && response.blocks.length === 0) failed.add(response.step)
  for (const response of responses) if (response.finish !== 'error' || response.blocks.length > 0) failed.delete(response.step)
  for (const step of callsOfStep.keys()) failed.delete(step)
  return failed
}

/** Calls `from` to `to` (0-based), whole. */
export function callsSpent(pieces: Pieces, from: number, to: number): Spent {
  const spent = new Map<string, Tokens>()
  for (let index = Math.max(0, from); index <= to; index++) {
    const piece = pieces.tokens.get(callPiece(index))
    if (piece !== undefined) spent.set(callPiece(index), piece)
  }
  return spent
}

/** `amounts` of steps (a response's output, each copy of a text), each spread evenly over the pieces it sits in. */
export function stepsSpent(pieces: Pieces, amounts: readonly { readonly step: string; readonly tokens: Tokens }[]): Spent {
  const spent = new Map<string, Tokens>()
  for (const { step, tokens } of amounts) {
    const keys = pieces.of(step)
    for (const key of keys) {
      const whole = pieces.tokens.get(key)
      if (whole === undefined) continue
      const share = scaled(tokens, 1 / keys.length)
      const already = spent.get(key)
      spent.set(key, atMost(already === undefined ? share : added(already, share), whole))
    }
  }
  return spent
}

/** What `spent` comes to. */
export function totalOf(spent: Spent): Tokens {
  return sum([...spent.values()])
}

/** `spent` times `factor` (a share of it: from a response's first repeat on, past a cut). */
export function scaleSpent(spent: Spent, factor: number): Spent {
  return new Map([...spent].map(([key, tokens]) => [key, scaled(tokens, factor)]))
}

/** What several loops spent together: each piece once, as much of it as the loop that spent most of it. */
export function union(all: readonly Spent[]): Spent {
  const spent = new Map<string, Tokens>()
  for (const one of all) {
    for (const [key, tokens] of one) {
      const already = spent.get(key)
      spent.set(key, already === undefined ? tokens : most(already, tokens))
    }
  }
  return spent
}

// Unrounded, unlike tokens.ts's: a share of a piece is a fraction until the figure is added up.
function scaled(tokens: Tokens, factor: number): Tokens {
  return tokensOf(tokens.input * factor, tokens.output * factor, tokens.estimated)
}

function added(a: Tokens, b: Tokens): Tokens {
  return tokensOf(a.input + b.input, a.output + b.output, a.estimated || b.estimated)
}

function most(a: Tokens, b: Tokens): Tokens {
  return tokensOf(Math.max(a.input, b.input), Math.max(a.output, b.output), a.estimated || b.estimated)
}

function atMost(amount: Tokens, whole: Tokens): Tokens {
  return tokensOf(Math.min(amount.input, whole.input), Math.min(amount.output, whole.output), amount.estimated || whole.estimated)
}
