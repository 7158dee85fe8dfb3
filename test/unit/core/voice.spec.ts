/** One loop, one voice: findings tied to the loop they are about, a loop told once and then on its own schedule. */
import { describe, expect, it } from 'vitest'
import type { LoopFinding, Evidence } from '../../../src/core/types.ts'
import { createVoice, type VoiceOptions } from '../../../src/core/voice.ts'

const options: VoiceOptions = { every: 5, denyCount: undefined, maxCalls: 64 }

const repeat = (key: number, count = 4): Evidence => ({
  finding: { kind: 'identical-calls', tool: `t${key}`, toolClass: 'default', args: '{}', count, evidence: 'same-result' },
  calls: [key],
})
const poll = (key: number): Evidence => ({
  finding: { kind: 'identical-calls', tool: `t${key}`, toolClass: 'poller', args: '{}', count: 6, evidence: 'same-result' },
  calls: [key],
})
const cycle = (keys: number[], laps = 3): Evidence => ({
  finding: { kind: 'cycle', tools: keys.map(key => `t${key}`), laps, sameResults: true }, calls: keys,
})
const error = (keys: number[]): Evidence => ({
  finding: { kind: 'same-error', tool: 't', count: keys.length, variants: keys.length, error: 'Error: no such file', cause: 'environment' },
  calls: keys,
})
const noNews = (keys: number[]): Evidence => ({
  finding: { kind: 'near-duplicate', count: keys.length, variants: keys.length, mostly: 'nothing', calls: [] }, calls: keys,
})
const kinds = (findings: readonly LoopFinding[]): string[] => findings.map(finding => finding.kind)

describe('a loop told once', () => {
  it('makes one notice of one call\'s findings, leading with the strongest and naming what adds something', () => {
    const told = createVoice(options).speak(1, 1, 0, 1, [repeat(1), error([1, 2]), cycle([1, 2])])
    expect(told?.finding.kind).toBe('cycle')
    // The repeat count adds nothing beside a cycle of repeats; the same error does.
    expect(kinds(told!.also)).toEqual(['same-error'])
    expect(told?.again).toBe(false)
  })

  it('holds back what other findings say of the same calls until the loop is due again, `every` repeats on', () => {
    const voice = createVoice(options)
    expect(voice.speak(10, 3, 0, 10, [cycle([1, 2, 3])])).toBeDefined()
    // Each of the cycle's calls reaching its fourth repeat on the next lap: the same loop.
    expect([11, 12, 13].map(at => voice.speak(at, at - 10, 0, at, [repeat(at - 10)]))).toEqual([undefined, undefined, undefined])
    // A cycle last told counts its repeats in laps: five laps of three calls on.
    expect(voice.speak(24, 3, 0, 24, [repeat(3, 8)])).toBeUndefined()
    expect(voice.speak(25, 3, 0, 25, [cycle([1, 2, 3], 8)])).toMatchObject({ finding: { kind: 'cycle' }, again: true })
  })

  it('joins the loops a finding touches into one: a cycle over two calls told apart', () => {
    const voice = createVoice(options)
    voice.speak(4, 1, 0, 4, [repeat(1)])
    voice.speak(6, 2, 0, 6, [repeat(2)])
    expect(voice.speak(8, 2, 0, 8, [cycle([1, 2])])).toBeUndefined()
    expect(voice.speak(11, 1, 0, 11, [cycle([1, 2], 5)])).toMatchObject({ again: true })
  })

  it('takes findings within one unbroken run of revisits as one loop, whatever calls they name', () => {
    const voice = createVoice(options)
    voice.speak(20, 1, 0, 15, [repeat(1)])
    expect(voice.speak(21, 2, 0, 15, [repeat(2)])).toBeUndefined()
    // Another run: another loop.
    expect(voice.speak(23, 3, 0, 23, [repeat(3)])).toMatchObject({ again: false })
  })

  it('gives a loop on other calls its own notice', () => {
    const voice = createVoice(options)
    voice.speak(4, 1, 0, 4, [repeat(1)])
    expect(voice.speak(5, 2, 0, 5, [repeat(2)])).toMatchObject({ again: false })
  })

  it('starts every loop afresh in a new progress epoch, and after a reset', () => {
    const voice = createVoice(options)
    voice.speak(4, 1, 0, 4, [repeat(1)])
    expect(voice.speak(5, 1, 1, 5, [repeat(1)])).toMatchObject({ again: false })
    voice.reset()
    expect(voice.speak(6, 1, 1, 6, [repeat(1)])).toMatchObject({ again: false })
  })
})

describe('calls that brought no news', () => {
  it('lead after every kind of exact repetition, which is the stronger evidence', () => {
    const told = createVoice(options).speak(1, 1, 0, 1, [noNews([1, 2, 3]), repeat(1)])
    expect(told?.finding.kind).toBe('identical-calls')
    expect(kinds(told!.also)).toEqual(['near-duplicate'])
  })

  it('are the same loop as the exact repetition their calls settle into, told on one schedule', () => {
    const voice = createVoice(options)
    expect(voice.speak(5, 3, 0, 5, [noNews([1, 2, 3])])).toMatchObject({ again: false, exactBefore: false })
    // A cycle of two of those calls is held back within `every` calls of that notice, then told as the same loop.
    expect(voice.speak(8, 2, 0, 8, [cycle([1, 2])])).toBeUndefined()
    expect(voice.speak(10, 2, 0, 10, [cycle([1, 2], 4)])).toMatchObject({ again: true, exactBefore: false })
    // Only now has exact repetition been told: what stop mode counts.
    expect(voice.speak(20, 2, 0, 20, [cycle([1, 2], 9)])).toMatchObject({ again: true, exactBefore: true })
  })

  it('wait their turn after another plugin\'s notice on one of their calls, as a plain repeat does', () => {
    const voice = createVoice(options)
    voice.heard(3, 1, 0)
    expect(voice.speak(4, 1, 0, 4, [noNews([1, 2, 3])])).toBeUndefined()
    expect(voice.speak(8, 1, 0, 8, [noNews([1, 2, 3])])).toBeDefined()
  })
})

describe('another plugin\'s voice', () => {
  it('holds back a plain repeat of what it said for the next `every` calls', () => {
    const voice = createVoice(options)
    voice.heard(3, 1, 0)
    expect(voice.speak(4, 1, 0, 4, [repeat(1)])).toBeUndefined()
    expect(voice.speak(8, 1, 0, 8, [repeat(1, 8)])).toMatchObject({ again: false })
  })

  it('lets through what it did not say: another kind of evidence, or deny mode\'s warning of refusals', () => {
    const heard = createVoice(options)
    heard.heard(3, 1, 0)
    expect(heard.speak(4, 1, 0, 4, [error([1, 2])])).toBeDefined()
    const deny = createVoice({ ...options, denyCount: 10 })
    deny.heard(3, 1, 0)
    expect(deny.speak(4, 1, 0, 4, [repeat(1)])).toBeDefined()
    // A poller is never refused: its repeat says nothing more.
    deny.heard(5, 2, 0)
    expect(deny.speak(6, 2, 0, 6, [poll(2)])).toBeUndefined()
  })
})

describe('bounds', () => {
  it('remembers at most `maxCalls` call identities', () => {
    const voice = createVoice({ ...options, maxCalls: 8 })
    for (let key = 0; key < 100; key++) voice.speak(key * 10, key, 0, key * 10, [repeat(key)])
    expect(voice.size).toBe(8)
  })
})
