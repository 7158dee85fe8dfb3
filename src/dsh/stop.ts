/**
 * Stop mode's hard stop, taken at the model request of the step that entered with the stop notice, before anything is
 * sent.
 *
 * DSH's own way for a hook to end a turn with a reason is `agent.cancel({ kind: 'hook', reason })`: the turn ends
 * `aborted`, and the session log keeps the reason in its `turn/end` record. (A pre-step `reject` ends a turn too, but
 * records no reason at all, and the step's messages, the stop notice among them, would never reach the transcript; it
 * is only the fallback should the cancel not take.) A goal is blocked with the reason first, so its driver does not
 * start the next round; a stopped subagent's reason is kept for its parent's tool result; the reason is written to
 * the terminal, which DSH would leave without it.
 * @module dsh-brake/dsh/stop
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { StopCause } from '../core/stops.js'
import { stopReason } from '../messages.js'
import type { Brake } from './brake.js'

/** The code a goal the brake ends is blocked with (the goals service asks for lower-kebab-case). */
export const GOAL_BLOCK_CODE = 'loop-brake'

/** End the agent's turn for `cause`. Each part is contained; returns whether the cancel took. */
export function stopTurn(brake: Brake, agent: Agent, cause: StopCause): boolean {
  const reason = stopReason(cause)
  attempt(brake, 'stop: goal', () => blockGoal(brake, agent, reason))
  attempt(brake, 'stop: subagent', () => {
    const header = agent.session.header
    if (header.origin === 'subagent' && header.parentSession !== undefined) brake.subagents.stopped(header.parentSession, reason)
  })
  // Pending input (a person's steering, another plugin's context) stays for the next turn.
  const cancelled = attempt(brake, 'stop: cancel', () => agent.cancel({ kind: 'hook', reason }, { keepInbox: true }))
  attempt(brake, 'stop: report', () => brake.report(`${reason}\n`))
  brake.emit('dsh-brake/stop', { agent, cause, reason })
  return cancelled
}

/** Block the agent's active goal with the reason, so the goal ends with the turn instead of starting another round. */
function blockGoal(brake: Brake, agent: Agent, message: string): void {
  const goals = brake.goals()
  const goal = goals?.get(agent)
  if (goals === undefined || goal?.phase !== 'active') return
  goals.block(agent, { id: goal.id, revision: goal.revision }, { code: GOAL_BLOCK_CODE, message })
}

/** Run one part of a stop; a failure is contained. Returns whether it ran through. */
function attempt(brake: Brake, where: string, step: () => void): boolean {
  try {
    step()
    return true
  } catch (error) {
    brake.contain(where, error)
    return false
  }
}
