/**
 * `agent/pre-step`: the messages an agent claims for its next step. A person's message (or a delegating parent's,
 * which DSH also sends as `user`) resets the agent; every other claimed text goes to the duplicate-text detector, and
 * its notice is appended to the step's messages. In stop mode this is also where a turn whose loop went on after its
 * notice ends, before the model is asked again.
 * @module dsh-brake/dsh/pre-step
 */
import type { Events } from '@deepseek-ai/cordis'
import type { Agent, PreStepDecision } from '@deepseek-ai/dsh-agent'
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import type { TextMessage } from '../core/detectors/duplicate-text.js'
import type { StopCause } from '../core/stops.js'
import { duplicateTextNotice, sourceLabel } from '../messages.js'
import type { Brake } from './brake.js'
import { notice } from './notices.js'
import { stopTurn } from './stop.js'

type Payload = Parameters<Events['agent/pre-step']>[0]

/** The listener. It never throws: a failure is contained and the downstream decision passes through unchanged. */
export async function onPreStep(brake: Brake, payload: Payload, next: () => Promise<PreStepDecision>): Promise<PreStepDecision> {
  let notices: UserMessage[] | undefined
  let stop: StopCause | undefined
  try {
    brake.enterTurn(payload.agent, payload.turn)
    notices = observeClaimed(brake, payload.agent, payload.messages)
    // Taken after the claimed messages are read: a person's message among them calls the stop off.
    if (brake.stop) stop = brake.takeStop(payload.agent, payload.turn)
  } catch (error) {
    brake.contain('agent/pre-step', error)
  }
  if (stop !== undefined && !payload.signal.aborted) {
    stopTurn(brake, payload.agent, payload.messages, stop)
    // The cancel has ended the turn already; should it not have taken, a rejected step still asks the model nothing.
    return { kind: 'reject' }
  }
  const decision = await next()
  if (notices === undefined) return decision
  try {
    if (decision.kind === 'reject' || payload.signal.aborted) return decision
    // A new array: the default decision's `messages` is the very array the loop claimed.
    return { ...decision, messages: [...decision.messages, ...notices] }
  } catch (error) {
    brake.contain('agent/pre-step', error)
    return decision
  }
}

/** Reset on a person's message; feed every other claimed text to the detector. */
function observeClaimed(brake: Brake, agent: Agent, claimed: readonly UserMessage[]): UserMessage[] | undefined {
  if (claimed.some(message => message.source.kind === 'user')) brake.forget(agent)
  const texts: TextMessage[] = []
  for (const message of claimed) {
    const source = message.source as { readonly kind: string; readonly plugin?: unknown }
    // A person's own words are not injected context; our own notices are never evidence of anything.
    if (source.kind === 'user' || (source.kind === 'plugin' && source.plugin === brake.name)) continue
    const parts: string[] = []
    for (const block of message.content) if (block.type === 'text') parts.push(block.text)
    if (parts.length > 0) texts.push({ id: message.id, source: sourceLabel(source), texts: parts })
  }
  if (texts.length === 0) return undefined
  const found = brake.stateOf(agent).observeText({ at: Date.now(), messages: texts })
  return found === undefined ? undefined : [notice(brake.name, duplicateTextNotice(found))]
}
