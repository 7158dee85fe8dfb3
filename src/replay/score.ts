/**
 * The one rule for "a plugin acted on this loop", which the evaluation (`npm run eval`) and `dsh-brake analyze` both
 * apply: an action for the loop's agent that falls on a call from the loop's first call to {@link CATCH_SLACK} calls
 * after its last. The slack credits an action that comes just after the loop stopped repeating (a cycle's notice
 * waits for the lap to finish; a revisit notice for its run), while an action long after the loop is not credited
 * to it. The spread of the delays (median, 75th percentile, maximum) is reported the same way everywhere too.
 * @module dsh-brake/replay/score
 */
import type { Action } from './actions.js'
import type { Episode } from './label/rules.js'

/** Calls after a loop's last call in which an action still counts as acting on it. */
export const CATCH_SLACK = 2

/** A loop's agent and calls, as far as the rule needs them: a labelled episode, or a stretch marked by reading. */
export type Window = Pick<Episode, 'agent' | 'start' | 'end'>

/** Whether `action` falls on `episode`: the same agent, from its first call to CATCH_SLACK calls after its last. */
export function actsOn(episode: Window, action: Pick<Action, 'agent' | 'call'>): boolean {
  return action.agent === episode.agent && action.call >= episode.start && action.call <= episode.end + CATCH_SLACK
}

/** The first of `actions` (in call order) that acts on `episode`, optionally of one kind only. */
export function firstOn(episode: Window, actions: readonly Action[], kind?: Action['kind']): Action | undefined {
  return actions.find(action => (kind === undefined || action.kind === kind) && actsOn(episode, action))
}

/**
 * Whether a stop kept `window` from being played: a stop of its agent before its first call, and no person's message
 * between to open a new turn (`turnStarts`: the agent's calls made before each of them). Such a loop is neither caught
 * nor missed: the turn ended before it.
 */
export function keptFromPlay(window: Window, stops: readonly Action[], turnStarts: readonly number[]): boolean {
  return stops.some(stop => stop.kind === 'stop' && stop.agent === window.agent && stop.call < window.start
    && !turnStarts.some(start => start > stop.call && start <= window.start))
}

/** Median, 75th percentile and maximum of a list of delays. */
export interface Spread {
  readonly median: number | undefined
  readonly p75: number | undefined
  readonly max: number | undefined
}

/** The spread of `values` (all undefined when there are none). */
export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b)
  return { median: median(sorted), p75: percentile(sorted, 0.75), max: sorted.at(-1) }
}

function median(sorted: readonly number[]): number | undefined {
  if (sorted.length === 0) return undefined
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]
}
