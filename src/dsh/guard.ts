/**
 * Deny mode's guard: refuses an exact call once its chain of identical calls without progress has reached
 * `callDenyCount`. A guard runs after every `tools/pre-execute` listener and no later listener can turn its refusal
 * back into permission.
 * @module dsh-brake/dsh/guard
 */
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { denialReason } from '../messages/refusals.js'
import type { Brake } from './brake.js'

/** The guard: a refusal reason, or `undefined` to let the call run. It never throws. */
export function guardCall(brake: Brake, exec: ToolExecution): string | undefined {
  try {
    const identity = brake.identify(exec)
    // Pollers are never refused: waiting on something is not a loop the brake can judge before the result.
    if (identity === undefined || identity.kind === 'poller') return undefined
    const state = brake.existingState(exec.agent!)
    if (state === undefined) return undefined
    const count = state.callCount(identity.key)
    if (count < brake.config.callDenyCount) return undefined
    brake.refused.add(exec)
    // The chain counts refused attempts too; the model is told what ran, and how many were refused since.
    const refused = state.refusedCount(identity.key)
    const reason = denialReason(exec.name, count - refused, brake.config.progressAware, refused)
    brake.emit('dsh-brake/refusal', { agent: exec.agent!, call: { name: exec.name, callId: exec.callId }, count, reason })
    return reason
  } catch (error) {
    // A throwing guard would turn the call into an error that skips post-execute: abstain instead.
    brake.contain('guard', error)
    return undefined
  }
}
