/** The one rule for "a plugin acted on this loop", which the evaluation and `dsh-brake analyze` both apply. */
import { describe, expect, it } from 'vitest'
import type { Action } from '../../../src/replay/actions.ts'
import type { Episode } from '../../../src/replay/label/rules.ts'
import { actsOn, CATCH_SLACK, firstOn, keptFromPlay, spread } from '../../../src/replay/score.ts'

const episode: Episode = { agent: 'a', start: 10, begins: 11, end: 20, labelledAt: 13, rules: ['I'], period: 1 }
const at = (call: number, kind: Action['kind'] = 'notice', agent = 'a'): Action => ({ kind, agent, call, text: `${kind} at ${call}` })

describe('actsOn', () => {
  it.each([
    [9, false], [10, true], [20, true], [20 + CATCH_SLACK, true], [21 + CATCH_SLACK, false],
  ])('an action after call %i: %s', (call, acts) => {
    expect(actsOn(episode, at(call))).toBe(acts)
  })

  it('never credits another agent\'s action', () => {
    expect(actsOn(episode, at(12, 'notice', 'b'))).toBe(false)
  })
})

describe('firstOn', () => {
  it('takes the first action that acts on the loop, of any kind or of the kind asked for', () => {
    const actions = [at(5), at(12, 'refusal'), at(15), at(18, 'stop')]
    expect(firstOn(episode, actions)).toEqual(at(12, 'refusal'))
    expect(firstOn(episode, actions, 'notice')).toEqual(at(15))
    expect(firstOn(episode, actions, 'stop')).toEqual(at(18, 'stop'))
    expect(firstOn(episode, [at(5), at(30)])).toBeUndefined()
  })
})

describe('keptFromPlay', () => {
  it('is true for a stop of the loop\'s agent before its first call, in the same turn', () => {
    expect(keptFromPlay(episode, [at(9, 'stop')], [0])).toBe(true)
    expect(keptFromPlay(episode, [at(9, 'stop', 'b')], [0])).toBe(false)
    expect(keptFromPlay(episode, [at(10, 'stop')], [0])).toBe(false)
    expect(keptFromPlay(episode, [at(9, 'notice')], [0])).toBe(false)
  })

  it('is false when a person\'s message opened a new turn between the stop and the loop', () => {
    expect(keptFromPlay(episode, [at(5, 'stop')], [0, 8])).toBe(false)
    expect(keptFromPlay(episode, [at(5, 'stop')], [0, 10])).toBe(false)
    expect(keptFromPlay(episode, [at(5, 'stop')], [0, 11])).toBe(true)
  })
})

describe('spread', () => {
  it.each([
    [[], { median: undefined, p75: undefined, max: undefined }],
    [[4], { median: 4, p75: 4, max: 4 }],
    [[9, 1, 5, 3], { median: 4, p75: 5, max: 9 }],
    [[7, -2, 0, 3, 1], { median: 1, p75: 3, max: 7 }],
  ])('of %j: %j (nearest-rank 75th percentile)', (values, expected) => {
    expect(spread(values)).toEqual(expected)
  })
})
