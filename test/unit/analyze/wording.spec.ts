/**
 * The phrases the text and HTML reports share: each loop kind said in the words its id is made of (docs/design.md,
 * "Loop kinds"), with what repeats in it, and where the loop is.
 */
import { describe, expect, it } from 'vitest'
import type { Loop } from '../../../src/analyze/analysis.ts'
import { callsOf, kindOf } from '../../../src/analyze/wording.ts'
import { LOOP_KINDS, type LoopKind } from '../../../src/core/kinds.ts'

const NONE = { input: 0, output: 0, total: 0, estimated: false }

function loop(kind: LoopKind, period: number | null, what: string, firstCall = 3, lastCall = 9): Loop {
  return {
    session: 's', agent: 'main', kind, foundBy: [kind], period, what, response: kind === 'runaway' || kind === 'same-response' ? 5 : null, firstCall, begins: firstCall + 1, lastCall,
    calls: lastCall - firstCall + 1, tokens: NONE, wasted: NONE, firstAction: {}, saved: {}, firstSaid: null, callsAfterSaid: null,
  }
}

describe('kindOf', () => {
  it.each([
    ['identical-calls', 1, 'read notes.txt', 'identical calls (read notes.txt)'],
    ['cycle', 3, 'read a → grep b → bash c', 'cycle of 3 calls (read a → grep b → bash c)'],
    ['same-ground', 6, 'read f 0 → read f 50', 'same ground, lap of 6 calls (read f 0 → read f 50)'],
    ['same-error', null, 'grep: Error: no index', 'same error (grep: Error: no index)'],
    ['duplicate-text', null, 'Stop hook: keep working.', 'duplicate text ("Stop hook: keep working.")'],
    ['same-response', null, 'I cannot reach the registry.', 'same response ("I cannot reach the registry.")'],
    ['runaway', null, 'not called, ', 'runaway response ("not called,")'],
    ['edit-revert', null, 'bash: SyntaxError: invalid syntax', 'edit revert, edits undoing each other (bash: SyntaxError: invalid syntax)'],
    ['same-failure', null, "bash: NameError: name 'x' is not defined", "same failure after every fix (bash: NameError: name 'x' is not defined)"],
  ] as [LoopKind, number | null, string, string][])('%s: says the kind in its own words', (kind, period, what, expected) => {
    expect(kindOf(loop(kind, period, what))).toBe(expected)
  })

  it('has words for every kind, each beginning with its id\'s words', () => {
    for (const kind of LOOP_KINDS) expect(kindOf(loop(kind, 2, 'x')).replace('-', ' ').startsWith(kind.replace('-', ' '))).toBe(true)
  })

  it('folds whitespace in what repeats and fits it in 80 characters', () => {
    const said = kindOf(loop('same-response', null, `line one\n\n  ${'word '.repeat(40)}`))
    expect(said).toMatch(/^same response \("line one word word/)
    expect(said.length).toBeLessThanOrEqual('same response ("")'.length + 80)
  })
})

describe('callsOf', () => {
  it('places a loop of calls by its calls, and a loop of responses by its response and the call before it', () => {
    expect(callsOf(loop('cycle', 2, 'x', 3, 9))).toBe('calls 3–9')
    expect(callsOf(loop('same-error', null, 'x', 5, 5))).toBe('call 5')
    expect(callsOf(loop('runaway', null, 'x', 7, 7))).toBe('response 5, after call 7')
    expect(callsOf(loop('runaway', null, 'x', 0, 0))).toBe('response 5, before the first call')
    expect(callsOf(loop('same-response', null, 'x', 4, 6))).toBe('from response 5, after calls 4–6')
    expect(callsOf(loop('same-response', null, 'x', 0, 2))).toBe('from response 5, from before the first call to after call 2')
  })

  it('places a context text claimed again and again by the steps that claimed it, not by calls it does not hold', () => {
    expect(callsOf(loop('duplicate-text', null, 'x', 0, 2))).toBe('claimed from before the first call to after call 2')
    expect(callsOf(loop('duplicate-text', null, 'x', 4, 9))).toBe('claimed after calls 4–9')
  })
})
