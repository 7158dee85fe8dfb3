/**
 * `agent/request`: the agent loop is about to make a step's model request. The brake notes whose request it is, by the
 * turn's signal the request will carry (the stream listener tells the loop's responses from a session title's by it),
 * and in stop mode ends the turn here when a stop is due (stop-mode.ts).
 * @module dsh-brake/dsh/request
 */
import type { Events } from '@deepseek-ai/cordis'
import type { LlmCallConfig } from '@deepseek-ai/dsh-llm'
import type { Brake } from './brake.js'

type Payload = Parameters<Events['agent/request']>[0]

/** The listener. It never throws, and never changes the request's configuration. */
export function onRequest(brake: Brake, payload: Payload, next: () => Promise<LlmCallConfig>): Promise<LlmCallConfig> {
  try {
    brake.requests.set(payload.signal, { agent: payload.agent, turn: payload.turn, step: payload.step })
  } catch (error) {
    brake.contain('agent/request', error)
  }
  return brake.stopMode === undefined ? next() : brake.stopMode.onRequest(payload, next)
}
