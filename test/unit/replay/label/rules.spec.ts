/**
 * The labelling rule on small made-up segments: what is a loop, and what is work. The
 * evaluation's figures and `dsh-brake analyze`'s "loops found" both stand on this rule.
 */
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../../src/replay/agent-events.ts'
import { labelAgent } from '../../../../src/replay/label/rules.ts'

function call(tool: string, args: unknown, text = 'ok', isError = false): AgentEvent {
  return { kind: 'call', agent: 'a', tool, args, isError, text }
}

/** Each episode as [start, end, the kinds that found it joined by `+`, period]. */
function episodes(events: AgentEvent[]): [number, number, string, number][] {
  return labelAgent('a', events).episodes.map(e => [e.start, e.end, e.foundBy.join('+'), e.period])
}

const ls = call('bash', { command: 'ls' })
const test = call('bash', { command: 'pytest -q', timeout: 60 }, 'FAILED in 0.52s')
const test2 = call('bash', { command: 'pytest -q', timeout: 90 }, 'FAILED in 1.07s')
const fix = (n: number): AgentEvent => call('str_replace_editor', { command: 'str_replace', path: 'f.py', old_str: 'a', new_str: `b${n}` }, 'The file f.py has been edited.')
const view = (n: number): AgentEvent => call('read', { file_path: 'f.py', offset: n * 50, limit: 50 }, `lines ${n}`)
const lap = [1, 2, 3, 4, 5, 6].map(view)

describe('identical-calls', () => {
  it.each([
    ['4 identical calls', [ls, ls, ls, ls], [[0, 3, 'identical-calls', 1]]],
    ['3 identical calls are not a loop', [ls, ls, ls], []],
    ['not back to back still counts', [ls, test, ls, test, ls, call('read', { file_path: 'f' }), ls], [[0, 6, 'identical-calls', 1]]],
    ['volatile durations and shell timeout ignored', [test, test2, test, test2], [[0, 3, 'identical-calls', 1]]],
    ['progress in between resets', [test, test, fix(1), test, test], []],
    ['a repeated identical edit is not progress', [test, fix(1), test, fix(1), test, fix(1), test, test], [[0, 7, 'identical-calls+cycle', 1]]],
    ['a changed outcome resets', [ls, ls, call('bash', { command: 'ls' }, 'other'), ls, ls], []],
    ['a user message starts over', [ls, ls, { kind: 'user', agent: 'a', text: 'go on' }, ls, ls], []],
  ] as [string, AgentEvent[], unknown][])('%s', (_name, events, expected) => {
    expect(episodes(events)).toEqual(expected)
  })

  it('reads calls only: steps and compactions between them change nothing', () => {
    const step: AgentEvent = { kind: 'step', agent: 'a', contexts: [] }
    const compaction: AgentEvent = { kind: 'compaction', agent: 'a', type: 'compaction/end', data: {} }
    expect(episodes([ls, step, ls, compaction, ls, step, ls])).toEqual([[0, 3, 'identical-calls', 1]])
  })
})

describe('calls DSH never ran', () => {
  const skipped: AgentEvent = { kind: 'call', agent: 'a', tool: 'bash', args: { command: 'ls' }, isError: true, text: 'Error: tool call aborted before dispatch', skipped: true }

  it('are no loop, however many, and the calls after them keep their numbers in the log', () => {
    expect(episodes([skipped, skipped, skipped, skipped])).toEqual([])
    expect(episodes([skipped, ls, skipped, ls, ls, ls])).toEqual([[1, 5, 'identical-calls', 1]])
  })
})

describe('cycle and same-ground', () => {
  it.each([
    ['cycle: 3 laps of 2', [view(1), view(2), view(1), view(2), view(1), view(2)], [[0, 5, 'cycle', 2]]],
    ['cycle: 2 laps of 3 are not enough', [view(1), view(2), view(3), view(1), view(2), view(3)], []],
    ['same-ground: 2 laps of 6', [...lap, ...lap], [[0, 11, 'same-ground', 6]]],
    ['same-ground: reordered second lap', [...lap, view(2), view(1), view(4), view(3), view(6), view(5)], [[0, 11, 'same-ground', 6]]],
    ['same-ground: one lap and a half is not enough', [...lap, view(1), view(2), view(3)], []],
    ['same-ground: an edit in between breaks it', [...lap, fix(2), ...lap], []],
  ] as [string, AgentEvent[], unknown][])('%s', (_name, events, expected) => {
    expect(episodes(events)).toEqual(expected)
  })
})

