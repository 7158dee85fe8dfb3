/**
 * Compaction: what the model no longer sees it may fairly read again, so when DSH's compaction plugins say in the
 * session log that they summarized or pruned the context, the brake forgets the agent's calls. There is no agent
 * event for it; `session/event` is where it shows.
 * Design: docs/design.md#compaction
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
