/**
 * The suggestion beside an unknown word: close slips find their word, other words find none.
 */
import { describe, expect, it } from 'vitest'
import { closestSpelling, editDistance } from '../../../src/words/spelling.ts'

const KEYS = ['mode', 'callWarnCount', 'pollWarnCount', 'callDenyCount', 'callReWarnEvery', 'sequenceLength', 'exclude', 'include']

describe('editDistance', () => {
  it.each([
    ['dsh-brake', 'dsh-brake', 0],
    ['dsh-brakes', 'dsh-brake', 1],
    ['dsh_brake', 'dsh-brake', 1],
    ['dshbrake', 'dsh-brake', 1],
    ['dsh-break', 'dsh-brake', 2],
    ['callWarnCnt', 'callWarnCount', 2],
    ['callwarncount', 'callWarnCount', 0],
    ['mdoe', 'mode', 1],
    ['', 'mode', 4],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3],
  ])('%s → %s: %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance)
    expect(editDistance(b, a)).toBe(distance)
  })
})

describe('closestSpelling', () => {
  it.each([
    ['callWarnCnt', 'callWarnCount'],
    ['callWarncount', 'callWarnCount'],
    ['mdoe', 'mode'],
    ['Mode', 'mode'],
    ['exlude', 'exclude'],
    ['sequenceLenght', 'sequenceLength'],
  ])('%s: did you mean %s?', (word, meant) => {
    expect(closestSpelling(word, KEYS)).toBe(meant)
  })

  it('finds the nearest of two close words', () => {
    expect(closestSpelling('callDenyCont', KEYS)).toBe('callDenyCount')
  })

  it.each(['threshold', 'identicalCalls', 'moderate', 'x', 'mode'])('suggests nothing for %s', (word) => {
    expect(closestSpelling(word, KEYS)).toBeUndefined()
  })

  it('takes a row id one or two slips from dsh-brake for it, and no other plugin\'s', () => {
    expect(['dsh-brakes', 'dsh_brake', 'dshbrake', 'dsh-break', 'DSH-Brake'].map(id => closestSpelling(id, ['dsh-brake'])))
      .toEqual(Array(5).fill('dsh-brake'))
    expect(['repeat-tool-reminder', 'brake', 'dsh-web', 'dsh-bash'].map(id => closestSpelling(id, ['dsh-brake'])))
      .toEqual(Array(4).fill(undefined))
  })
})
