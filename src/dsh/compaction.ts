/**
 * Compaction: DSH's compaction plugins replace older parts of an agent's context with a summary, or cut the middle out
 * of large tool results, and say so in the agent's session log (`compaction/end` once a summary landed,
 * `compaction/prune` for each pruned result). What the model no longer sees it may fairly read again, so the brake
 * forgets the agent's calls: re-reading what was dropped is not a loop, and counts from before never lead to a
 * refusal after. There is no agent event for it; `session/event` is where it shows.
 * @module dsh-brake/dsh/compaction
 */
import type { Session, SessionEvent } from '@deepseek-ai/dsh-session'
import type { Brake } from './brake.js'

/** Whether a session event says the context was compacted: a summary that landed, or a pruned tool result. */
export function isCompaction(event: Pick<SessionEvent, 'type' | 'data'>): boolean {
  // The compaction event types belong to the compaction plugins, not to the session's own map.
  const type: string = event.type
  if (type === 'compaction/prune') return true
  return type === 'compaction/end' && (event.data as { readonly error?: unknown }).error === undefined
}

/** The listener. It never throws. */
export function onSessionEvent(brake: Brake, session: Session, event: SessionEvent): void {
  try {
    if (isCompaction(event)) brake.compacted(session)
  } catch (error) {
    brake.contain('session/event', error)
  }
}
