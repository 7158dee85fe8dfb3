/**
 * `agent/pre-step`: the messages an agent claims for its next step. A person's message (or a delegating parent's,
 * which DSH also sends as `user`) resets the agent; every other claimed text goes to the duplicate-text detector, and
 * its notice is appended to the step's messages. In stop mode, the step after a call that settled a stop enters with
 * the stop notice, and is the turn's last (see `stop-mode.ts`).
 * @module dsh-brake/dsh/pre-step
 */
import type { Events } from '@deepseek-ai/cordis'
import type { Agent, PreStepDecision } from '@deepseek-ai/dsh-agent'
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import type { TextMessage } from '../core/detectors/duplicate-text.js'
import { duplicateTextNotice, sourceLabel } from '../messages/notices.js'
import type { Brake } from './brake.js'
import { notice } from './notices.js'
import { reminderCall } from './stock-tools.js'

type Payload = Parameters<Events['agent/pre-step']>[0]

/** The listener. It never throws: a failure is contained and the downstream decision passes through unchanged. */
export async function onPreStep(brake: Brake, payload: Payload, next: () => Promise<PreStepDecision>): Promise<PreStepDecision> {
  const { agent } = payload
  const { stopMode } = brake
  let notices: UserMessage[] | undefined
  let lastStep = false
  try {
    stopMode?.stepBegins(agent, payload.turn)
    // Read first: a person's message among the claimed ones calls a coming stop off with the rest of the state.
    notices = observeClaimed(brake, agent, payload.messages)
    // Notices about the agent's last responses, which no tool result carried.
    const waiting = brake.waiting.get(agent)
    if (waiting !== undefined) {
      brake.waiting.delete(agent)
      notices = [...notices ?? [], ...waiting]
    }
    const start = stopMode?.stepStarting(agent, payload.signal.aborted)
    // The cancel did not take at the last model request: this step asks the model nothing.
    if (start?.kind === 'reject') return { kind: 'reject' }
    if (start !== undefined) {
      (notices ??= []).push(start.notice)
      lastStep = true
    }
  } catch (error) {
    brake.contain('agent/pre-step', error)
  }
  const decision = await next()
  if (notices === undefined) return decision
  try {
    if (decision.kind === 'reject' || payload.signal.aborted) {
      // The turn ends here anyway, without a model request.
      if (lastStep) stopMode?.turnEndedAnyway(agent)
      return decision
    }
    // A new array: the default decision's `messages` is the very array the loop claimed.
    const entered = { ...decision, messages: [...decision.messages, ...notices] }
    if (lastStep) stopMode?.noticeEntered(agent)
    return entered
  } catch (error) {
    brake.contain('agent/pre-step', error)
    return decision
  }
}

/**
 * Reset on a person's message; hear repeat-tool-reminder's notices as a voice on the calls they name; feed every other
 * claimed text to the duplicate-text detector.
 */
function observeClaimed(brake: Brake, agent: Agent, claimed: readonly UserMessage[]): UserMessage[] | undefined {
  if (claimed.some(message => message.source.kind === 'user')) brake.forget(agent)
  const texts: TextMessage[] = []
  for (const message of claimed) {
    const source = message.source as { readonly kind: string; readonly plugin?: unknown; readonly summary?: unknown }
    // A person's own words are not injected context; our own notices are never evidence of anything.
    if (source.kind === 'user' || (source.kind === 'plugin' && source.plugin === brake.name)) continue
    // The reminder told the model about a repeated call: the brake does not say it again (its text is no hook's).
    const reminded = reminderCall(source)
    if (reminded !== undefined) {
      brake.stateOf(agent).heardAbout(reminded)
      continue
    }
    const parts: string[] = []
    for (const block of message.content) if (block.type === 'text') parts.push(block.text)
    if (parts.length > 0) texts.push({ id: message.id, source: sourceLabel(source), texts: parts })
  }
  if (texts.length === 0) return undefined
  const found = brake.stateOf(agent).observeText({ at: Date.now(), messages: texts })
  if (found === undefined) return undefined
  const text = duplicateTextNotice(found)
  brake.emit('dsh-brake/notice', { agent, finding: found, also: [], again: false, ...text })
  return [notice(brake.name, text)]
}
