/**
 * The phrases the text report and the HTML page share, so the two say the same thing the same way.
 * @module dsh-brake/analyze/wording
 */
import type { BrakeAction, Tokens } from './analysis.js'

/** Where an action falls, as "notice at call 4", or "none". */
export function place(action: BrakeAction | null): string {
  return action === null ? 'none' : `${action.kind} at call ${action.call}`
}

/** A token count; an estimate is marked `~`, with `how` in parentheses after it. */
export function tokenCount(value: Tokens, how: string): string {
  return value.estimated ? `~${value.total} tokens (${how})` : `${value.total} tokens`
}
