/**
 * The one rule for "a plugin acted on this loop", which the evaluation (`npm run eval`) and `dsh-brake analyze` both
 * apply: an action for the loop's agent that falls on a call from the loop's first call to {@link CATCH_SLACK} calls
 * after its last. The slack credits an action that comes just after the loop stopped repeating (a cycle's notice
 * waits for the lap to finish; a revisit notice for its run), while an action long after the loop is not credited
 * to it.
 * @module dsh-brake/replay/score
 */
import type { Action } from './actions.js'
import type { Episode } from './label/rules.js'

/** Calls after a loop's last call in which an action still counts as acting on it. */
export const CATCH_SLACK = 2

/** Whether `action` falls on `episode`: the same agent, from its first call to CATCH_SLACK calls after its last. */
export function actsOn(episode: Episode, action: Pick<Action, 'agent' | 'call'>): boolean {
  return action.agent === episode.agent && action.call >= episode.start && action.call <= episode.end + CATCH_SLACK
}

/** The first of `actions` (in call order) that acts on `episode`, optionally of one kind only. */
export function firstOn(episode: Episode, actions: readonly Action[], kind?: Action['kind']): Action | undefined {
  return actions.find(action => (kind === undefined || action.kind === kind) && actsOn(episode, action))
}
