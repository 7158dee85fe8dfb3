/**
 * What a loop-detection plugin did to an agent, in one shape: what a replay finds it would do and what a session log
 * says it did live are both lists of these, and a report reads them the same way. Scoring an action against a loop
 * is score.ts's business.
 * @module dsh-brake/replay/actions
 */

/** A notice a plugin gave the model, a call a guard refused, or a turn a plugin ended. */
export interface Action {
  readonly kind: 'notice' | 'refusal' | 'stop'
  readonly agent: string
  /**
   * The agent's call the action follows, 0-based within the agent: the call whose result a notice rides, the refused
   * call itself, the last call before a stop; -1 before the agent's first call.
   */
  readonly call: number
  /** A notice's summary; a refusal's or a stop's reason. */
  readonly text: string
  /** The plugin that gave a notice (a refusal comes through DSH's guard, and a stop through a cancel: neither says). */
  readonly plugin?: string
}

/** How the actions after one call are listed: notices, then refusals, then stops (the heavier last, as they end it). */
const KIND_ORDER = { notice: 0, refusal: 1, stop: 2 } as const

/** Actions in call order; at one call, notices, then refusals, then stops, each kind in the order it was taken. */
export function byCall(actions: readonly Action[]): Action[] {
  return [...actions].sort((a, b) => a.call - b.call || KIND_ORDER[a.kind] - KIND_ORDER[b.kind])
}

/**
 * The actions not among `earlier` (what the same plugins did before a change): one counts as the same when it is of
 * the same kind, by the same plugin, after the same call of the same agent, whatever its text now says.
 */
export function addedTo(earlier: readonly Action[], actions: readonly Action[]): Action[] {
  return actions.filter(action => !earlier.some(old => old.kind === action.kind && old.agent === action.agent
    && old.call === action.call && old.plugin === action.plugin))
}
