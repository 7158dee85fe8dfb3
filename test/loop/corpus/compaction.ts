/**
 * Compaction inside the real DSH loop, for the corpus: the session events DSH's compaction plugins append, appended
 * the way they append them (through the session's public `append`, between two steps), so that DSH itself publishes
 * them on `session/event`. No compaction plugin is loaded (it would need a token meter and a summarizing model); what
 * the brake reads is the session log, and that is written exactly as they write it.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Session, SessionEvent } from '@deepseek-ai/dsh-session'

/**
 * How the context is compacted:
 * - `summary`: `@deepseek-ai/dsh-compaction-basic` summarized older history: `compaction/start` … `compaction/end`.
 * - `failed`: the same attempt closed with an `error` (nothing was dropped).
 * - `prune`: `@deepseek-ai/dsh-compaction-tool-result-pruner` cut a large tool result: `compaction/prune`, then the
 *   shortened result replacing the original on the surface.
 */
export type CompactionKind = 'summary' | 'failed' | 'prune'

/** A compaction between two steps, once this many tool results are in the agent's session log. */
export interface CompactionPoint {
  readonly after: number
  readonly kind: CompactionKind
}

// The compaction event types are declared by the compaction plugins (a `SessionEventMap` augmentation), which this
// package does not install; the session accepts any JSON event and publishes it all the same. A loose view of
// `append` keeps that augmentation out of the program the tests typecheck with src.
interface LooseAppend {
  append(type: string, data: unknown, ...opts: unknown[]): SessionEvent
}

/**
 * Compact `target`'s context once, at the first step after `point.after` tool results, as DSH plugins do. Returns
 * how many tool results the log held when it happened (undefined until then), for the test to check it did.
 */
export function compactAt(ctx: Context, target: Agent, point: CompactionPoint): { at: number | undefined } {
  const done: { at: number | undefined } = { at: undefined }
  // dsh-compaction-basic compacts on `agent/pre-step` (step pressure), inside the open turn.
  ctx.on('agent/pre-step', async (payload, next) => {
    const results = toolResults(target.session).length
    if (done.at === undefined && payload.agent === target && results >= point.after) {
      compact(target.session, point.kind, payload.turn)
      done.at = results
    }
    return next()
  })
  return done
}

function toolResults(session: Session): SessionEvent<'tool/result'>[] {
  return session.events.filter((event): event is SessionEvent<'tool/result'> => event.type === 'tool/result')
}

function compact(session: Session, kind: CompactionKind, turn: number): void {
  const log = session as unknown as LooseAppend
  if (kind === 'prune') {
    // The pruner's pass over one over-budget result: its shadow price, then the shortened result in its place.
    const seq = session.surface.nodes.find(at => session.events[at]?.type === 'tool/result')
    if (seq === undefined) throw new Error('compaction: no tool result on the surface to prune')
    const event = session.events[seq] as SessionEvent<'tool/result'>
    const [block] = event.data.message.content
    log.append('compaction/prune', { shadowedRange: { start: seq, end: seq }, shadowedSeqs: [seq], shadowedTokenCount: 120 })
    log.append('tool/result', {
      ...event.data,
      message: { ...event.data.message, content: [{ ...block, content: [{ type: 'text', text: '<content>\n[… 96 lines pruned …]\n</content>' }] }] },
    }, { surfaceOp: { op: 'replace', start: seq, end: seq }, sourceEventSeqs: [seq] })
    return
  }
  // dsh-compaction-basic's bracket (its summary and checkpoint message in between are not what the brake reads).
  const lifecycle = { compactionId: `compaction-${session.seq}`, turn }
  log.append('compaction/start', lifecycle)
  log.append('compaction/end', kind === 'failed' ? { ...lifecycle, error: 'summarize: context overflow' } : lifecycle)
}
