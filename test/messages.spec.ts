import { describe, expect, it } from 'vitest'
import type { DuplicateBlock } from '../src/core/types.ts'
import {
  ARGS_PREVIEW_CHARS, clip, denialReason, duplicateTextNotice, repeatedCallNotice, sequenceNotice, sourceLabel, SUMMARY_CHARS,
} from '../src/messages.ts'

const wellFormed = (text: string): boolean => text.isWellFormed()

describe('repeated-call notice', () => {
  it('says what was seen and what to do instead', () => {
    const { text, summary } = repeatedCallNotice({ kind: 'repeated-call', tool: 'read', args: '{"file_path":"a.ts"}', count: 6 })
    expect(text).toBe([
      '[dsh-brake] You have called `read` with these exact arguments 6 times since the last user message:',
      '{"file_path":"a.ts"}',
      'Calling it again will not tell you anything new. Use the result you already have, change the arguments, or take a different approach. If something is blocking you, stop and tell the user what it is.',
    ].join('\n'))
    expect(summary).toBe('read × 6, same arguments')
  })

  it('warns about refusals in deny mode, only while below the deny count', () => {
    const found = { kind: 'repeated-call', tool: 'read', args: '{}', count: 6 } as const
    expect(repeatedCallNotice(found, 10).text).toMatch(/\nIdentical calls beyond 10 are refused until the user speaks again\.$/)
    expect(repeatedCallNotice({ ...found, count: 11 }, 10).text).not.toContain('refused')
    expect(repeatedCallNotice(found).text).not.toContain('refused')
  })

  it('inserts arguments as they are, never expanding placeholders inside them', () => {
    const { text } = repeatedCallNotice({ kind: 'repeated-call', tool: '{count}', args: '{"q":"{tool} {count}"}', count: 6 })
    expect(text.split('\n').slice(0, 2)).toEqual([
      '[dsh-brake] You have called `{count}` with these exact arguments 6 times since the last user message:',
      '{"q":"{tool} {count}"}',
    ])
  })

  it('quotes a bounded preview of huge arguments and a bounded tool name', () => {
    const args = JSON.stringify({ body: 'x'.repeat(10_000_000) })
    const tool = 't'.repeat(5000)
    const { text, summary } = repeatedCallNotice({ kind: 'repeated-call', tool, args, count: 6 })
    expect(text.length).toBeLessThan(1000)
    expect(text).toContain(`${args.slice(0, ARGS_PREVIEW_CHARS)}… (+${args.length - ARGS_PREVIEW_CHARS} more chars)`)
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_CHARS)
  })
})

describe('sequence notice', () => {
  it('names the cycle and the laps', () => {
    const { text, summary } = sequenceNotice({ kind: 'sequence', tools: ['grep', 'curl', 'read', 'bash'], laps: 3 })
    expect(text).toBe([
      '[dsh-brake] The same 4 calls have run 3 times in a row, each time with the same arguments: grep → curl → read → bash.',
      'This cycle is not making progress. Change one of its steps (other arguments or another tool), or stop and tell the user what is blocking you.',
    ].join('\n'))
    expect(summary).toBe('cycle × 3: grep → curl → read → bash')
  })

  it('keeps the summary within 120 characters for long cycles', () => {
    const tools = Array.from({ length: 32 }, (_, i) => `tool_with_a_long_name_${i}`)
    const { summary } = sequenceNotice({ kind: 'sequence', tools, laps: 3 })
    expect(summary.length).toBe(SUMMARY_CHARS)
    expect(summary.endsWith('…')).toBe(true)
  })
})

describe('duplicate-text notice', () => {
  const block = (over: Partial<DuplicateBlock> = {}): DuplicateBlock => ({
    count: 3, sources: ['plugin hooks-claude-code'], head: 'Remember to run\nthe linter.', length: 27, ...over,
  })

  it('lists the block with its count, window, sources and a one-line preview', () => {
    const { text, summary } = duplicateTextNotice({ kind: 'duplicate-text', threshold: 3, windowMs: 120_000, blocks: [block()] })
    expect(text).toBe([
      '[dsh-brake] The same text keeps arriving in your context, unchanged:',
      '- 3 times within 2 min, from plugin hooks-claude-code: "Remember to run the linter."',
      'It repeats what you already have and is not a new instruction: do not redo work because of it. If it asks for something you cannot do, tell the user instead of trying again.',
    ].join('\n'))
    expect(summary).toBe('repeated text × 3 from plugin hooks-claude-code')
  })

  it('says how many of the occurrences fell in the window, and bounds the list and the preview', () => {
    const long = block({ count: 5, sources: ['plugin a', 'subagent-report'], head: 'y'.repeat(200), length: 5000 })
    const { text } = duplicateTextNotice({ kind: 'duplicate-text', threshold: 3, windowMs: 90_000, blocks: [long, block(), block(), block(), block()] })
    expect(text).toContain(`- 5 times, 3 of them within 90 s, from plugin a, subagent-report: "${'y'.repeat(120)}…"`)
    expect(text).toContain('- repeated blocks not shown: 2')
    expect(text.split('\n')).toHaveLength(6)
  })
})

describe('denial reason', () => {
  it('says what happened and how to get unstuck, bounded', () => {
    const reason = denialReason('read', 10)
    expect(reason).toBe('dsh-brake refused this call: `read` has already been called 10 times with these exact arguments since the last user message, and another identical call will not give a different answer. Use the results you already have, change the arguments or the approach, or stop and tell the user what is blocking you. Identical calls are allowed again after the next user message.')
    expect(denialReason('x'.repeat(100_000), 10).length).toBeLessThan(600)
  })
})

describe('bounded, well-formed text', () => {
  it('never splits a surrogate pair when clipping', () => {
    const emoji = '😀'.repeat(100)
    for (let max = 1; max < 20; max++) expect(wellFormed(clip(emoji, max))).toBe(true)
    const { summary } = sequenceNotice({ kind: 'sequence', tools: Array.from({ length: 40 }, () => '😀'.repeat(3)), laps: 3 })
    expect(wellFormed(summary)).toBe(true)
  })

  it('names sources by kind, and plugin where present', () => {
    expect(sourceLabel({ kind: 'plugin', plugin: 'hooks-codex' })).toBe('plugin hooks-codex')
    expect(sourceLabel({ kind: 'subagent-report' })).toBe('subagent-report')
    expect(sourceLabel({ kind: 'plugin', plugin: 'p'.repeat(500) }).length).toBeLessThan(100)
  })
})
