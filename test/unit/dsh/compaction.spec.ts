import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { describe, expect, it } from 'vitest'
import { isCompaction } from '../../../src/dsh/compaction.ts'

const event = (type: string, data: unknown = {}): SessionEvent => ({ type, data, seq: 1, time: 0 }) as unknown as SessionEvent

describe('compaction in the session log', () => {
  it.each([
    ['a summary that landed', event('compaction/end', { compactionId: 'c1', turn: 2 }), true],
    ['a pruned tool result', event('compaction/prune', { callId: 'call_1' }), true],
    ['a failed compaction, which changed nothing', event('compaction/end', { compactionId: 'c1', turn: 2, error: 'overflow' }), false],
    ['the start of one, not yet done', event('compaction/start', { compactionId: 'c1', turn: 2 }), false],
    ['anything else', event('tool/result', {}), false],
  ])('%s: %s', (_, given, expected) => {
    expect(isCompaction(given)).toBe(expected)
  })
})
