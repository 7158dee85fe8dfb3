/**
 * Stop mode whole: each agent's coming stop and every move between its three stages (`tools/post-execute` settles it,
 * `agent/pre-step` puts the stop notice in the transcript, `agent/request` ends the turn before the model is asked),
 * because no single listener can both show the person why and end the turn with that reason.
 * Design: docs/design.md#stop-mode
 * @module dsh-brake/dsh/stop-mode
 */
import type { Events } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { GoalService } from '@deepseek-ai/dsh-goal'
import type { LlmCallConfig, UserMessage } from '@deepseek-ai/dsh-llm'
import { loopStopCause, stopCause, type CountedCall, type StopCause } from '../core/stops.js'
import type { Told } from '../core/voice.js'
import { stopNotice, stopReason } from '../messages/notices.js'
import type { EmitBrakeEvent } from './events.js'
import { notice } from './notices.js'
import type { SubagentStops } from './subagents.js'

type RequestPayload = Parameters<Events['agent/request']>[0]

/** What a starting step must do for a coming stop. */
export type StepStart =
  /** Enter with the stop notice after its messages: its model request ends the turn. */
  | { readonly kind: 'last-step'; readonly notice: UserMessage }
  /** Ask the model nothing: the cancel at the last model request did not take. */
  | { readonly kind: 'reject' }

/** Stop mode of one mounted brake: each agent's coming stop, from the call that settles it to the turn's end. */
export interface StopMode {
  /** A step of the agent's turn `turn` begins: a stop settled in an earlier turn lapses. */
  stepBegins(agent: Agent, turn: number): void
  /**
   * A call was counted, and `counted.told` is what the brake tells of its loop now: when that settles a stop, the
   * agent's next step is its turn's last (a stop already coming stays as it is). Returns whether this call settled the
   * stop.
   */
  callCounted(agent: Agent, counted: CountedCall): boolean
  /** A response was counted, and `told` is what the brake tells of its loop: as for a call. */
  responseCounted(agent: Agent, told: Told | undefined): boolean
  /**
   * A response was cut again in the agent's turn `turn` (a cut loop that went on): the turn ends at its next model
   * request. Returns the stop notice to put in the agent's inbox now (a cut response may have asked for no tool call,
   * and only a message waiting keeps its turn going to that request), or undefined when a stop is coming already.
   */
  cutEndsTurn(agent: Agent, turn: number, cause: StopCause): UserMessage | undefined
  /**
   * The step's claimed messages are read: what it must do, if anything. A step to reject takes the stop with it, unless
   * the turn is `aborted` already (it ends without the reject).
   */
  stepStarting(agent: Agent, aborted: boolean): StepStart | undefined
  /** The last step entered with the stop notice: its model request ends the turn. */
  noticeEntered(agent: Agent): void
  /** The last step's turn ended before its model request (a downstream reject, a cancel): nothing is left to do. */
  turnEndedAnyway(agent: Agent): void
  /** Forget the agent (a person's message): a stop it had coming is off. */
  forget(agent: Agent): void
  /**
   * The `agent/request` listener: the model request of the step that entered with the stop notice ends the turn, before
   * anything is sent. It never throws, and never changes the request's configuration.
   */
  onRequest(payload: RequestPayload, next: () => Promise<LlmCallConfig>): Promise<LlmCallConfig>
}

/**
 * What stop mode uses of its brake (the brake hands in its own parts: it is made from them, stop mode among them), and
 * what only a stop uses of the host.
 */
export interface StopModeHost {
  /** The plugin name, the stop notice's source. */
  readonly name: string
  /** Where a stopped subagent's reason waits for its parent's delegation result. */
  readonly subagents: SubagentStops
  readonly emit: EmitBrakeEvent
  /** Log the first failure at `where`; the rest of the stop goes on without that part. */
  contain(where: string, error: unknown): void
  /** DSH's goals service, when the host runs one. */
  goals(): GoalService | undefined
  /** Where a stop's reason is written for the person at the terminal (one line each). */
  report(line: string): void
}

/** What a coming stop does next: give its notice, cancel the turn, or reject the step after a cancel that failed. */
type Next = 'notice' | 'cancel' | 'reject'

interface ComingStop {
  readonly cause: StopCause
  readonly turn: number
  next: Next
}

/** The code a goal the brake ends is blocked with (the goals service asks for lower-kebab-case). */
const GOAL_BLOCK_CODE = 'loop-brake'

/** Create the stop mode of one mounted brake. */
export function createStopMode(host: StopModeHost): StopMode {
  const turns = new WeakMap<Agent, number>()
  const coming = new WeakMap<Agent, ComingStop>()

  /** The agent's coming stop, if `next` is what it does next in the agent's current turn; a lapsed one is dropped. */
  function pending(agent: Agent, next: Next): StopCause | undefined {
    const stop = coming.get(agent)
    if (stop === undefined) return undefined
    if (stop.turn !== turns.get(agent)) {
      coming.delete(agent)
      return undefined
    }
    return stop.next === next ? stop.cause : undefined
  }

  function advance(agent: Agent, next: Next): void {
    const stop = coming.get(agent)
    if (stop !== undefined) stop.next = next
  }

  const drop = (agent: Agent): void => void coming.delete(agent)

  /** A stop is due for `cause`, if any: the agent's next step is its turn's last (one coming already stays). */
  function settle(agent: Agent, cause: StopCause | undefined): boolean {
    if (cause === undefined || coming.has(agent)) return false
    coming.set(agent, { cause, turn: turns.get(agent) ?? 0, next: 'notice' })
    return true
  }

  return {
    stepBegins: (agent, turn) => void turns.set(agent, turn),
    callCounted: (agent, counted) => settle(agent, stopCause(counted)),
    responseCounted(agent, told) {
      return settle(agent, loopStopCause(told))
    },
    cutEndsTurn(agent, turn, cause) {
      if (coming.has(agent)) return undefined
      turns.set(agent, turn)
      // The notice goes in with the step the cut response leads to; that step's request ends the turn.
      coming.set(agent, { cause, turn, next: 'cancel' })
      return notice(host.name, stopNotice(cause))
    },
    stepStarting(agent, aborted) {
      if (pending(agent, 'reject') !== undefined && !aborted) {
        drop(agent)
        return { kind: 'reject' }
      }
      const cause = pending(agent, 'notice')
      return cause === undefined ? undefined : { kind: 'last-step', notice: notice(host.name, stopNotice(cause)) }
    },
    noticeEntered: agent => advance(agent, 'cancel'),
    turnEndedAnyway: drop,
    forget: drop,
    onRequest(payload, next) {
      try {
        const cause = pending(payload.agent, 'cancel')
        if (cause !== undefined && !payload.signal.aborted) {
          if (endTurn(host, payload.agent, cause)) drop(payload.agent)
          else advance(payload.agent, 'reject')
        }
      } catch (error) {
        host.contain('agent/request', error)
      }
      return next()
    },
  }
}

/** End the agent's turn for `cause`. Each part is contained; returns whether the cancel took. */
function endTurn(host: StopModeHost, agent: Agent, cause: StopCause): boolean {
  const reason = stopReason(cause)
  attempt(host, 'stop: goal', () => blockGoal(host, agent, reason))
  attempt(host, 'stop: subagent', () => {
    const header = agent.session.header
    if (header.origin === 'subagent' && header.parentSession !== undefined) host.subagents.stopped(header.parentSession, reason)
  })
  // Pending input (a person's steering, another plugin's context) stays for the next turn.
  const cancelled = attempt(host, 'stop: cancel', () => agent.cancel({ kind: 'hook', reason }, { keepInbox: true }))
  attempt(host, 'stop: report', () => host.report(`${reason}\n`))
  host.emit('dsh-brake/stop', { agent, cause, reason })
  return cancelled
}

/** Block the agent's active goal with the reason, so the goal ends with the turn instead of starting another round. */
function blockGoal(host: StopModeHost, agent: Agent, message: string): void {
  const goals = host.goals()
  const goal = goals?.get(agent)
  if (goals === undefined || goal?.phase !== 'active') return
  goals.block(agent, { id: goal.id, revision: goal.revision }, { code: GOAL_BLOCK_CODE, message })
}

/** Run one part of a stop; a failure is contained. Returns whether it ran through. */
function attempt(host: StopModeHost, where: string, step: () => void): boolean {
  try {
    step()
    return true
  } catch (error) {
    host.contain(where, error)
    return false
  }
}
