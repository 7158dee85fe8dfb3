/**
 * What `dsh-brake analyze` finds, as plain data: the one model the text, JSON and HTML reports are written from.
 * Call numbers count from 1 within each agent (0: before its first call), as a person counts "the fourth read".
 * @module dsh-brake/analyze/analysis
 */
import type { Action } from '../replay/actions.js'

/** Tokens, from the session's usage records or, where it has none, estimated from text size. */
export interface Tokens {
  readonly input: number
  readonly output: number
  readonly total: number
  /** Whether any part is an estimate (about four characters of arguments and results per token). */
  readonly estimated: boolean
}

/** One loop the labelling rule found (an episode: loops that overlap or touch are one). */
export interface Loop {
  readonly session: string
  readonly agent: string
  /** `repeated-call` (the same call and result, period 1), `cycle` (2 to 4 calls), `long-cycle` (5 to 20 calls). */
  readonly kind: 'repeated-call' | 'cycle' | 'long-cycle'
  /** The labelling rules that found it: I (identical), C (short cycle), L (long cycle). */
  readonly rules: readonly string[]
  readonly firstCall: number
  readonly lastCall: number
  /** Its first repeat: where work turned into a loop. */
  readonly begins: number
  /** How many calls it spans. */
  readonly calls: number
  readonly period: number
  /** What its calls cost. */
  readonly tokens: Tokens
  /** Per config, the first notice, refusal or stop that acts on the loop (src/replay/score.ts); null when none does. */
  readonly firstAction: Readonly<Record<string, BrakeAction | null>>
  /** The first thing the brake did live that acts on the loop, in the session itself; null when nothing. */
  readonly firstSaid: BrakeAction | null
}

/** A notice, a refusal or a stop (a replay's or the session's own), after call `call`, counted from 1. */
export type BrakeAction = Pick<Action, 'kind' | 'call' | 'text'>

/** A response that fell into repeating itself: where the brake would cut it (or did), and what that spares. */
export interface ResponseCut {
  /** The response, counted from 1 within the agent. */
  readonly response: number
  /** Calls the agent had made before it. */
  readonly callsBefore: number
  readonly part: 'text' | 'reasoning'
  /** The repeated unit, and its back-to-back copies at the cut. */
  readonly unit: string
  readonly copies: number
  /** Characters of the response (reasoning and text, as they streamed) up to the cut. */
  readonly at: number
  /** Output tokens the response spent past the cut: its reported output, by share of characters, or an estimate. */
  readonly tokensAfter: number
  readonly estimated: boolean
  /** Whether the brake cut this response in the session itself (then little or nothing streamed past the point). */
  readonly cutInSession: boolean
}

/** One call, for the timeline. */
export interface CallSummary {
  readonly call: number
  readonly tool: string
  readonly failed: boolean
  /** Refused by the brake in the session itself. */
  readonly refused: boolean
  readonly tokens: Tokens
}

/** One agent of one session: the main agent, or a subagent (its own session log). */
export interface AgentAnalysis {
  /** The top-level session's id; a subagent's log is grouped under the session that delegated to it. */
  readonly session: string
  /** `main`, or the subagent's own session id. */
  readonly agent: string
  readonly file: string
  readonly calls: readonly CallSummary[]
  readonly loops: readonly Loop[]
  /** Per config name, what the brake would do under it. */
  readonly brake: Readonly<Record<string, readonly BrakeAction[]>>
  /** Calls a stop would have spared, per config name. */
  readonly spared: Readonly<Record<string, number>>
  /** What the brake actually said in the session. */
  readonly said: readonly BrakeAction[]
  /** Per config name, the responses the brake would cut under it. */
  readonly cuts: Readonly<Record<string, readonly ResponseCut[]>>
  /** The responses the brake cut in the session itself. */
  readonly cutInSession: readonly { readonly response: number; readonly callsBefore: number }[]
  readonly tokens: Tokens
}

/** A session log that could not be read, and why. */
export interface ReadError {
  readonly file: string
  readonly message: string
}

/** The whole analysis. */
export interface Analysis {
  /** The config names, in order: the first is `--config`'s (or the defaults), the second `--compare`'s. */
  readonly configs: readonly string[]
  readonly agents: readonly AgentAnalysis[]
  readonly errors: readonly ReadError[]
}
