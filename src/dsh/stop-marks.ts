/**
 * Where each agent's coming stop stands. A stop goes through three stages, one listener each:
 *
 * - `due`: a call settled it (`tools/post-execute`); the agent's next step will be its last.
 * - `armed`: that step entered with the stop notice among its messages (`agent/pre-step`), so the notice is in the
 *   session's transcript, where the person sees it; the turn ends at the step's model request (`agent/request`),
 *   before anything is sent.
 * - `refuse`: the cancel did not take; the next step is rejected instead.
 *
 * A mark belongs to the turn it was made in: one left over from an earlier turn (a turn the person cancelled first)
 * lapses. A person's message takes the mark off with the rest of the agent's state.
 * @module dsh-brake/dsh/stop-marks
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { StopCause } from '../core/stops.js'

/** How far a coming stop has got. */
export type StopStage = 'due' | 'armed' | 'refuse'

/** The coming stops of one mounted brake's agents. */
export interface StopMarks {
  /** Note the turn the agent is in, as its steps begin. */
  enterTurn(agent: Agent, turn: number): void
  /** A call settled a stop: end the agent's turn at its next step (a stop already coming stays as it is). */
  due(agent: Agent, cause: StopCause): void
  /** The agent's coming stop, if it is at `stage` in the agent's current turn; a lapsed one is dropped. */
  at(agent: Agent, stage: StopStage): StopCause | undefined
  /** Move the agent's coming stop to `stage`, or drop it (`undefined`). */
  move(agent: Agent, stage: StopStage | undefined): void
}

interface Mark {
  readonly cause: StopCause
  readonly turn: number
  stage: StopStage
}

/** Create the stop marks of one mounted brake. */
export function createStopMarks(): StopMarks {
  const turns = new WeakMap<Agent, number>()
  const marks = new WeakMap<Agent, Mark>()
  return {
    enterTurn: (agent, turn) => void turns.set(agent, turn),
    due(agent, cause) {
      if (!marks.has(agent)) marks.set(agent, { cause, turn: turns.get(agent) ?? 0, stage: 'due' })
    },
    at(agent, stage) {
      const mark = marks.get(agent)
      if (mark === undefined) return undefined
      if (mark.turn !== turns.get(agent)) {
        marks.delete(agent)
        return undefined
      }
      return mark.stage === stage ? mark.cause : undefined
    },
    move(agent, stage) {
      const mark = marks.get(agent)
      if (mark === undefined) return
      if (stage === undefined) marks.delete(agent)
      else mark.stage = stage
    },
  }
}
