/**
 * What `dsh-brake analyze` finds, as plain data: the one model the text, JSON and HTML reports are written from.
 * Call numbers count from 1 within each agent (0: before its first call), as a person counts "the fourth read".
 * @module dsh-brake/analyze/analysis
 */
import type { Action } from '../replay/actions.js'
import type { LoopKind } from '../core/kinds.js'

/** Tokens, from the session's usage records or, where it has none, estimated from text size. */
export interface Tokens {
  readonly input: number
  readonly output: number
  readonly total: number
  /** Whether any part is an estimate from text size (tokens.ts). */
  readonly estimated: boolean
}

/** What the brake would save of a loop under one config, if the model stopped looping when it was told, and for sure at a stop. */
export interface Saved {
  /** The loop's tokens after the first notice, refusal or stop that acts on it; null when none does. */
  readonly afterNotice: Tokens | null
  /**
   * The loop's tokens after a stop within it (stop mode), which the agent never spends; for a response repeating
   * itself, what streamed past its cut (as `afterNotice`: a cut needs no heeding); null when none.
   */
  readonly afterStop: Tokens | null
}

/** One loop the rules found (an episode: loops that overlap or touch are one). */
export interface Loop {
  readonly session: string
  readonly agent: string
  /** What kind of loop it is, read from its calls (docs/design.md, "Loop kinds"). */
  readonly kind: LoopKind
  /**
   * The kinds whose rule found it, in the order of `LOOP_KINDS`: `identical-calls` (the same call and result 4 times),
   * `cycle` (2 to 4 calls, 3 laps), `same-ground` (a lap of 5 to 20 calls, twice, in any order), `same-error` (one
   * tool, the same error, 3 times across arguments), `duplicate-text` (the same context text in 3 steps),
   * `same-response` (the same answer 3 responses in a row), `runaway` (a response repeating itself as it streamed).
   */
  readonly foundBy: readonly LoopKind[]
  /** A cycle's or a same-ground lap's length in calls; 1 for identical calls; null for the other kinds. */
  readonly period: number | null
  /** What repeats: a cycle's or lap's tools in order, an identical call or failing tool, a text's or response's opening. */
  readonly what: string
  /**
   * A loop of responses (`runaway`, `same-response`): its (first) response, counted from 1 within the agent; null for
   * a loop of calls or of context text.
   */
  readonly response: number | null
  /**
   * Calls: its first, its first repeat (where work turned into a loop), its last, and how many it spans. A loop of
   * responses spans none (`calls`: 0): it sits after call `firstCall` (0: before the agent's first call). Nor does a
   * context text claimed again and again (`duplicate-text`): its copies went into the steps after calls `firstCall`,
   * `begins` (the first repeat) and `lastCall`.
   */
  readonly firstCall: number
  readonly begins: number
  readonly lastCall: number
  readonly calls: number
  /** What it cost, all of it; what it wasted, from its first repeat on. */
  readonly tokens: Tokens
  readonly wasted: Tokens
  /**
   * Per config, the first notice, refusal or stop that acts on the loop (src/replay/score.ts), or for a response
   * repeating itself the cut; null when none does.
   */
  readonly firstAction: Readonly<Record<string, BrakeAction | null>>
  /** Per config, what the brake would save of it. */
  readonly saved: Readonly<Record<string, Saved>>
  /** The first thing the brake did live that acts on the loop (for a response, its cut), in the session itself; null when nothing. */
  readonly firstSaid: BrakeAction | null
  /** Calls the loop went on after the brake's first live notice on it (0: it ended there); null without one. */
  readonly callsAfterSaid: number | null
}

/**
 * A notice, a refusal or a stop (a replay's or the session's own), after call `call`, counted from 1; or the cut of a
 * response streamed after that call, its `text` saying where it fell.
 */
export interface BrakeAction {
  readonly kind: Action['kind'] | 'cut'
  readonly call: number
  readonly text: string
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
  /** Characters of the response (reasoning and text, as they streamed) up to the cut, and before its first repeat. */
  readonly at: number
  readonly repeatsFrom: number
  /** Output tokens the response spent past the cut: its reported output, by share of characters, or an estimate. */
  readonly tokensAfter: number
  readonly estimated: boolean
  /** Whether the brake cut this response in the session itself (then little or nothing streamed past the point). */
  readonly cutInSession: boolean
}

/** A response the brake cut in the session itself: where, in characters streamed (reasoning and answer), and in which part. */
export interface LiveCut {
  readonly response: number
  readonly callsBefore: number
  readonly at: number
  readonly part: 'text' | 'reasoning'
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
  /** Per config name, the brake's actions (notices, refusals, stops) the replay under it finds, in call order. */
  readonly actionsByConfig: Readonly<Record<string, readonly BrakeAction[]>>
  /** Calls a stop would have spared, per config name. */
  readonly spared: Readonly<Record<string, number>>
  /** What the brake actually said in the session. */
  readonly said: readonly BrakeAction[]
  /** Per config name, the responses the brake would cut under it. */
  readonly cuts: Readonly<Record<string, readonly ResponseCut[]>>
  /** The responses the brake cut in the session itself. */
  readonly cutInSession: readonly LiveCut[]
  readonly tokens: Tokens
  /** Its tokens spent in loops and wasted in them, each counted once where loops overlap (pieces.ts). */
  readonly inLoops: Tokens
  readonly wasted: Tokens
}

/** A session: its main agent and the subagents delegated from it, with what their loops cost. */
export interface SessionAnalysis {
  readonly session: string
  /** Its agents with a loop or a brake action, main agent first. */
  readonly agents: readonly AgentAnalysis[]
  /** Every agent of the session, quiet ones included. */
  readonly agentCount: number
  readonly calls: number
  readonly tokens: Tokens
  readonly wasted: Tokens
}

/** A session with no loop and nothing the brake would do or did: counted, listed on request. */
export interface QuietSession {
  readonly session: string
  readonly files: readonly string[]
  readonly calls: number
  readonly tokens: Tokens
}

/** The figures over the whole run. */
export interface Overview {
  readonly sessions: number
  readonly agents: number
  readonly calls: number
  readonly sessionsWithLoops: number
  /** Loops, by kind. */
  readonly loops: Readonly<Record<LoopKind, number>>
  /** Every agent's tokens; those spent in loops; those wasted from each loop's first repeat on. */
  readonly tokens: Tokens
  readonly inLoops: Tokens
  readonly wasted: Tokens
  /** Per config, what the brake would save over all loops. */
  readonly saved: Readonly<Record<string, { readonly afterNotice: Tokens; readonly afterStop: Tokens }>>
  /** The loops the brake spoke about live, and how many of them ended within {@link HEARD_WITHIN} calls of its first notice. */
  readonly heard: { readonly loops: number; readonly endedSoon: number }
  /** The costliest loops by wasted tokens, costliest first. */
  readonly costliest: readonly Loop[]
}

/** A loop that ends within this many calls of the brake's first notice on it was heard. */
export const HEARD_WITHIN = 3

/** A session log that could not be read, and why. */
export interface ReadError {
  readonly file: string
  readonly message: string
}

/** The whole analysis. */
export interface Analysis {
  /** The config names, in order: the first is `--config`'s (or the defaults), the second `--compare`'s. */
  readonly configs: readonly string[]
  readonly overview: Overview
  /** Sessions with a loop or a brake action (under a config, or live), costliest first. */
  readonly sessions: readonly SessionAnalysis[]
  /** How many sessions had neither; and, when asked for, which. */
  readonly quiet: { readonly count: number; readonly sessions: readonly QuietSession[] | undefined }
  readonly errors: readonly ReadError[]
}
