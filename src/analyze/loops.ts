/**
 * The loops of one agent, each with its kind, what it cost and what the brake would save of it. Call loops come from
 * the labelling rule, which knows nothing of the brake; the other kinds have plain rules of their own (log-rules.ts),
 * as independent of the brake.
 * Design: docs/design.md#loop-kinds; the rules and costs: docs/analyze.md#what-is-reported
 * @module dsh-brake/analyze/loops
 */
import { byCall, type Action } from '../replay/actions.js'
import type { CallFacts } from '../replay/label/facts.js'
import { SAME_GROUND_LAP_MAX, type Episode } from '../replay/label/rules.js'
import { firstOn } from '../replay/score.js'
import type { LoopKind } from '../core/kinds.js'
import type { BrakeAction, Loop, Saved, Tokens } from './analysis.js'
import { callsSpent, totalOf, union, type Spent } from './pieces.js'
import { logRuleLoops, type Found, type LoopInput, type SavedSpent } from './log-rules.js'

/** An agent's loops, and what they spent together: each piece once where loops overlap. */
export interface AgentLoops {
  readonly loops: Loop[]
  readonly inLoops: Tokens
  readonly wasted: Tokens
  /** Per config, what the brake would save of them together. */
  readonly saved: Record<string, { readonly afterNotice: Tokens; readonly afterStop: Tokens }>
}

/** Every loop of the agent, in the order they begin. */
export function loopsOf(input: LoopInput): Loop[] {
  return agentLoops(input).loops
}

/** Every loop of the agent, in the order they begin, and what they spent together. */
export function agentLoops(input: LoopInput): AgentLoops {
  const callLoops = input.episodes.map(episode => callLoop(episode, input.facts))
  const found = [
    ...callLoops,
    ...logRuleLoops(input, callLoops.map(loop => loop.episode)),
  ].sort((a, b) => a.episode.start - b.episode.start || a.episode.end - b.episode.end)
  const all = found.map(loop => priced(loop, input))
  const together = (spent: readonly (Spent | null)[]): Tokens => totalOf(union(spent.filter(one => one !== null)))
  const saved: AgentLoops['saved'] = {}
  for (const config of Object.keys(input.replayed)) {
    saved[config] = {
      afterNotice: together(all.map(one => one.saved[config]?.afterNotice ?? null)),
      afterStop: together(all.map(one => one.saved[config]?.afterStop ?? null)),
    }
  }
  return {
    loops: all.map(one => one.loop),
    inLoops: together(all.map(one => one.tokens)),
    wasted: together(all.map(one => one.wasted)),
    saved,
  }
}

// ── call loops ────────────────────────────────────────────────────────────────────────────────────────────────────────

/** A call episode's kind, read from its calls. */
function callLoop(episode: Episode, facts: readonly CallFacts[]): Found {
  const calls = facts.filter(call => call.index >= episode.start && call.index <= episode.end)
  const keys = calls.map(call => `${call.action}\n${call.outcome}`)
  const first = calls.findIndex(call => call.index >= episode.begins)
  const period = shortestPeriod(keys, Math.max(first, 1))
  const lapPeriod = episode.foundBy.includes('same-ground') ? sameGroundLap(episode, calls) : undefined
  const kind: LoopKind = period === 1 ? 'identical-calls' : period !== undefined && period <= 4 ? 'cycle' : period !== undefined || lapPeriod !== undefined ? 'same-ground' : 'identical-calls'
  const length = period ?? lapPeriod ?? 1
  // What repeats: the repeated call, or the lap's calls in order from where the loop starts.
  const lap = calls.slice(0, length).map(callLabel)
  const what = kind === 'identical-calls' ? mostRepeated(calls) : lap.join(' → ')
  return { kind, foundBy: episode.foundBy, period: kind === 'identical-calls' ? 1 : length, what, episode }
}

/** The shortest period (1 to the longest same-ground lap) the keys repeat with from `from` to their end, if any. */
function shortestPeriod(keys: readonly string[], from: number): number | undefined {
  for (let period = 1; period <= Math.min(SAME_GROUND_LAP_MAX, keys.length - 1); period++) {
    let periodic = true
    for (let i = Math.max(from, period); i < keys.length && periodic; i++) periodic = keys[i] === keys[i - period]
    if (periodic && keys.length >= 2 * period) return period
  }
  return undefined
}

/** The lap the same-ground rule found: the calls from the episode's start to its first repeat (in any order). */
function sameGroundLap(episode: Episode, calls: readonly CallFacts[]): number | undefined {
  const lap = calls.filter(call => call.index < episode.begins).length
  return lap >= 2 ? lap : undefined
}

/** The call that repeats most in `calls`. */
function mostRepeated(calls: readonly CallFacts[]): string {
  const counts = new Map<string, { call: CallFacts; count: number }>()
  for (const call of calls) {
    const entry = counts.get(call.action) ?? { call, count: 0 }
    entry.count++
    counts.set(call.action, entry)
  }
  const top = [...counts.values()].sort((a, b) => b.count - a.count)[0]
  return top === undefined ? '' : callLabel(top.call)
}

/** A call in a few words: its tool and its first text argument (`read src/app.ts`, `bash npm test`). */
function callLabel(call: CallFacts): string {
  const args = call.args !== null && typeof call.args === 'object' ? Object.values(call.args as Record<string, unknown>) : [call.args]
  const first = args.find((value): value is string => typeof value === 'string' && value.trim() !== '')
  if (first === undefined) return call.tool
  const text = first.replace(/\s+/g, ' ').trim()
  return `${call.tool} ${text.length > 32 ? `${text.slice(0, 31)}…` : text}`
}

// ── costs ────────────────────────────────────────────────────────────────────────────────────────────────────────

/** A loop with its figures, and the pieces it spent, wasted and would spare under each config. */
interface PricedLoop {
  readonly loop: Loop
  readonly tokens: Spent
  readonly wasted: Spent
  readonly saved: Readonly<Record<string, SavedSpent>>
}

/** A found loop with its costs, where the brake acts on it under each config, and what it said live. */
function priced(loop: Found, input: LoopInput): PricedLoop {
  const { episode } = loop
  const between = (from: number, to: number): Spent => callsSpent(input.pieces, from, to)
  const countedOrNull = (action: Action | undefined): BrakeAction | null => action === undefined ? null : counted(action)
  const firstAction: Record<string, BrakeAction | null> = {}
  const saved: Record<string, SavedSpent> = {}
  for (const [config, actions] of Object.entries(input.replayed)) {
    const first = firstOn(episode, actions)
    // A response repeating itself is acted on by a cut, not by what the brake says after the call before it.
    firstAction[config] = loop.cut === undefined ? countedOrNull(first) : loop.cut.under(config)
    if (loop.priced !== undefined) {
      saved[config] = loop.priced.saved(config)
      continue
    }
    const stop = firstOn(episode, actions, 'stop')
    saved[config] = {
      afterNotice: first === undefined ? null : between(first.call + 1, episode.end),
      afterStop: stop === undefined ? null : between(stop.call + 1, episode.end),
    }
  }
  const heard = loop.cut === undefined ? firstOn(episode, byCall(input.said), 'notice') : undefined
  const tokens = loop.priced?.tokens ?? between(episode.start, episode.end)
  const wasted = loop.priced?.wasted ?? between(episode.begins, episode.end)
  const figure = (spent: Spent | null): Tokens | null => spent === null ? null : totalOf(spent)
  const response = loop.cut?.response ?? loop.response
  return {
    loop: {
      session: input.session,
      // Named `main` until the session's agents are grouped (a subagent is then named by its own session id).
      agent: 'main',
      kind: loop.kind,
      foundBy: loop.foundBy,
      period: loop.period,
      what: loop.what,
      response: response ?? null,
      firstCall: episode.start + 1,
      begins: episode.begins + 1,
      lastCall: episode.end + 1,
      // A loop of responses spans no call: it sits after one. Nor does a text claimed step after step: the calls between
      // its copies are the agent's work, whatever the text said.
      calls: response === undefined && loop.kind !== 'duplicate-text' ? Math.max(0, episode.end - episode.start + 1) : 0,
      tokens: totalOf(tokens),
      wasted: totalOf(wasted),
      firstAction,
      saved: Object.fromEntries(Object.entries(saved).map(([config, { afterNotice, afterStop }]): [string, Saved] => [config, {
        afterNotice: figure(afterNotice), afterStop: figure(afterStop),
      }])),
      firstSaid: loop.cut === undefined ? countedOrNull(firstOn(episode, input.said)) : loop.cut.inSession,
      callsAfterSaid: heard === undefined ? null : Math.max(0, episode.end - heard.call),
    },
    tokens, wasted, saved,
  }
}

/** An action as the reports number calls: from 1. */
export function counted({ kind, call, text }: Action): BrakeAction {
  return { kind, call: call + 1, text }
}
