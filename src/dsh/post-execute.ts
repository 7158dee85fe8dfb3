/**
 * `tools/post-execute`: every executed call is counted here, after the fact, because every attempt passes through
 * this waterfall: successes, failures, and calls refused by a guard or by pre-execute policy alike. Notices are
 * folded onto the downstream decision's `additionalContexts`, ahead of everything downstream added. In stop mode
 * each counted call is also handed to stop mode, as any of them may settle a stop (see `stop-mode.ts`); a parent's
 * failed delegation carries the reasons its stopped subagents were stopped for.
 * @module dsh-brake/dsh/post-execute
 */
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import type { PostToolDecision, ToolExecution, ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import type { Brake } from './brake.js'
import { loopNotice } from '../messages/notices.js'
import { notice } from './notices.js'
import { observeCall } from './observe.js'

/** The listener. It never throws: a failure is contained and the downstream decision passes through unchanged. */
export function onPostExecute(
  brake: Brake, exec: ToolExecution, result: Readonly<ToolExecutionResult>, next: () => Promise<PostToolDecision>,
): Promise<PostToolDecision> {
  let notices: UserMessage[] | undefined
  let carrying = false
  try {
    notices = noticesFor(brake, exec, result)
    carrying = brake.subagents.waiting(exec)
  } catch (error) {
    brake.contain('tools/post-execute', error)
  }
  // Nothing to add, as for almost every call: the downstream decision goes back as it comes.
  if (notices === undefined && !carrying) return next()
  const ours = notices
  // A downstream listener may answer with a plain decision rather than a promise: take either.
  return Promise.resolve(next()).then((decision) => {
    try {
      const told = ours === undefined ? decision : { ...decision, additionalContexts: [...ours, ...decision.additionalContexts ?? []] }
      return carrying ? brake.subagents.carry(exec, result, told) : told
    } catch (error) {
      brake.contain('tools/post-execute', error)
      return decision
    }
  })
}

/**
 * The notice one call brings, if any: one about the loop the call is part of, when that loop is due one. In stop mode
 * a call that settles a stop brings none: the stop notice that closes the turn names the loop.
 */
function noticesFor(brake: Brake, exec: ToolExecution, result: Readonly<ToolExecutionResult>): UserMessage[] | undefined {
  const identity = brake.identify(exec)
  if (identity === undefined) return undefined
  const refused = brake.deny && brake.refused.has(exec)
  const state = brake.stateOf(exec.agent!)
  const observation = observeCall(exec, identity, result, refused)
  const told = state.observeCall(observation)
  const chainLength = refused ? state.callCount(identity.key) : 0
  const stopping = brake.stopMode?.callCounted(exec.agent!, { call: observation, told, chainLength }) === true
  if (told === undefined || stopping) return undefined
  const text = loopNotice(told, brake.deny ? brake.config.callDenyCount : undefined)
  brake.emit('dsh-brake/notice', {
    agent: exec.agent!, call: { name: exec.name, callId: exec.callId }, finding: told.finding, also: told.also, again: told.again, ...text,
  })
  return [notice(brake.name, text)]
}
