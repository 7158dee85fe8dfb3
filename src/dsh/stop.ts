/**
 * Stop mode's hard stop, taken at the agent's next step, before the model is asked again.
 *
 * DSH's own way for a hook to end a turn with a reason is `agent.cancel({ kind: 'hook', reason })`: the turn ends
 * `aborted`, and the session log keeps the reason in its `turn/end` record. A pre-step `reject` ends it too, but
 * records no reason at all, so it is only the fallback should the cancel not take. Nothing claimed for the step is
 * lost: the messages go back to the inbox (the loop's notice among them) with one more telling the model why its turn
 * ended, and the person's next message brings them along, with fresh counts. A goal is blocked with the reason first,
 * so its driver does not start the next round; a stopped subagent's reason is kept for its parent's tool result.
 * @module dsh-brake/dsh/stop
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import type { StopCause } from '../core/stops.js'
import { stopNotice, stopReason } from '../messages.js'
import type { Brake } from './brake.js'
import { notice } from './notices.js'

/** The code a goal the brake ends is blocked with (the goals service asks for lower-kebab-case). */
export const GOAL_BLOCK_CODE = 'loop-brake'

/** End the agent's turn for `cause`; `claimed` are the messages its step had claimed. Each part is contained. */
export function stopTurn(brake: Brake, agent: Agent, claimed: readonly UserMessage[], cause: StopCause): void {
  const reason = stopReason(cause)
  attempt(brake, 'stop: goal', () => blockGoal(brake, agent, reason))
  attempt(brake, 'stop: subagent', () => {
    const header = agent.session.header
    if (header.origin === 'subagent' && header.parentSession !== undefined) brake.subagents.stopped(header.parentSession, reason)
  })
  attempt(brake, 'stop: inbox', () => {
    // Prepended in reverse, so the claimed messages keep their order and the stop notice comes last.
    agent.inbox.prepend('next-step', notice(brake.name, stopNotice(cause)))
    for (const message of claimed.toReversed()) agent.inbox.prepend('next-step', message)
  })
  attempt(brake, 'stop: cancel', () => agent.cancel({ kind: 'hook', reason }, { keepInbox: true }))
  attempt(brake, 'stop: report', () => brake.report(`${reason}\n`))
}

/** Block the agent's active goal with the reason, so the goal ends with the turn instead of starting another round. */
function blockGoal(brake: Brake, agent: Agent, message: string): void {
  const goals = brake.goals()
  const goal = goals?.get(agent)
  if (goals === undefined || goal?.phase !== 'active') return
  goals.block(agent, { id: goal.id, revision: goal.revision }, { code: GOAL_BLOCK_CODE, message })
}

function attempt(brake: Brake, where: string, step: () => void): void {
  try {
    step()
  } catch (error) {
    brake.contain(where, error)
  }
}
