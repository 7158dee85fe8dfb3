/**
 * `agent/request`: the model request of a step, before anything is sent. In stop mode, the step that entered with the
 * stop notice ends its turn here: the notice is in the transcript by now, and the loop checks the turn's signal right
 * after this waterfall, so the model is never asked.
 * @module dsh-brake/dsh/request
 */
import type { Events } from '@deepseek-ai/cordis'
import type { LlmCallConfig } from '@deepseek-ai/dsh-llm'
import type { Brake } from './brake.js'
import { stopTurn } from './stop.js'

type Payload = Parameters<Events['agent/request']>[0]

/** The listener. It never throws, and never changes the request's configuration. */
export function onRequest(brake: Brake, payload: Payload, next: () => Promise<LlmCallConfig>): Promise<LlmCallConfig> {
  try {
    const cause = brake.stops.at(payload.agent, 'armed')
    if (cause !== undefined && !payload.signal.aborted) {
      brake.stops.move(payload.agent, stopTurn(brake, payload.agent, cause) ? undefined : 'refuse')
    }
  } catch (error) {
    brake.contain('agent/request', error)
  }
  return next()
}
