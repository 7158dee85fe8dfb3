/** One loop, one voice: findings tied to the loop they are about, a loop told once and then on its own schedule. */
import { describe, expect, it } from 'vitest'
import type { LoopFinding, Evidence } from '../../../src/core/kinds.ts'
import { createVoice, type VoiceOptions } from '../../../src/core/voice.ts'

const options: VoiceOptions = { every: 5, maxCalls: 64 }

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
    const told = createVoice(options).speak({ at: 1, key: 1, epoch: 0, runStart: 1, evidence: [repeat(1), error([1, 2]), cycle([1, 2])] })
    expect(told?.finding.kind).toBe('cycle')
    // The repeat count adds nothing beside a cycle of repeats; the same error does.
    expect(kinds(told!.also)).toEqual(['same-error'])
    expect(told?.again).toBe(false)
  })

  it('holds back what other findings say of the same calls until the loop is due again, `every` repeats on', () => {
    const voice = createVoice(options)
    expect(voice.speak({ at: 10, key: 3, epoch: 0, runStart: 10, evidence: [cycle([1, 2, 3])] })).toBeDefined()
    // Each of the cycle's calls reaching its fourth repeat on the next lap: the same loop.
    const repeats = [11, 12, 13].map(at => voice.speak({ at, key: at - 10, epoch: 0, runStart: at, evidence: [repeat(at - 10)] }))
    expect(repeats).toEqual([undefined, undefined, undefined])
    // A cycle last told counts its repeats in laps: five laps of three calls on.
    expect(voice.speak({ at: 24, key: 3, epoch: 0, runStart: 24, evidence: [repeat(3, 8)] })).toBeUndefined()
    expect(voice.speak({ at: 25, key: 3, epoch: 0, runStart: 25, evidence: [cycle([1, 2, 3], 8)] }))
      .toMatchObject({ finding: { kind: 'cycle' }, again: true })
  })

  it('joins the loops a finding touches into one: a cycle over two calls told apart', () => {
    const voice = createVoice(options)
    voice.speak({ at: 4, key: 1, epoch: 0, runStart: 4, evidence: [repeat(1)] })
    voice.speak({ at: 6, key: 2, epoch: 0, runStart: 6, evidence: [repeat(2)] })
    expect(voice.speak({ at: 8, key: 2, epoch: 0, runStart: 8, evidence: [cycle([1, 2])] })).toBeUndefined()
    expect(voice.speak({ at: 11, key: 1, epoch: 0, runStart: 11, evidence: [cycle([1, 2], 5)] })).toMatchObject({ again: true })
  })

  it('takes findings within one unbroken run of revisits as one loop, whatever calls they name', () => {
    const voice = createVoice(options)
    voice.speak({ at: 20, key: 1, epoch: 0, runStart: 15, evidence: [repeat(1)] })
    expect(voice.speak({ at: 21, key: 2, epoch: 0, runStart: 15, evidence: [repeat(2)] })).toBeUndefined()
    // Another run: another loop.
    expect(voice.speak({ at: 23, key: 3, epoch: 0, runStart: 23, evidence: [repeat(3)] })).toMatchObject({ again: false })
  })

  it('gives a loop on other calls its own notice', () => {
    const voice = createVoice(options)
    voice.speak({ at: 4, key: 1, epoch: 0, runStart: 4, evidence: [repeat(1)] })
    expect(voice.speak({ at: 5, key: 2, epoch: 0, runStart: 5, evidence: [repeat(2)] })).toMatchObject({ again: false })
  })

  it('starts every loop afresh in a new progress epoch, and after a reset', () => {
    const voice = createVoice(options)
    voice.speak({ at: 4, key: 1, epoch: 0, runStart: 4, evidence: [repeat(1)] })
    expect(voice.speak({ at: 5, key: 1, epoch: 1, runStart: 5, evidence: [repeat(1)] })).toMatchObject({ again: false })
    voice.reset()
    expect(voice.speak({ at: 6, key: 1, epoch: 1, runStart: 6, evidence: [repeat(1)] })).toMatchObject({ again: false })
  })
})

describe('calls that brought no news', () => {
  it('lead after every kind of exact repetition, which is the stronger evidence', () => {
    const told = createVoice(options).speak({ at: 1, key: 1, epoch: 0, runStart: 1, evidence: [noNews([1, 2, 3]), repeat(1)] })
    expect(told?.finding.kind).toBe('identical-calls')
    expect(kinds(told!.also)).toEqual(['near-duplicate'])
  })

  it('are the same loop as the exact repetition their calls settle into, told on one schedule', () => {
    const voice = createVoice(options)
    expect(voice.speak({ at: 5, key: 3, epoch: 0, runStart: 5, evidence: [noNews([1, 2, 3])] }))
      .toMatchObject({ again: false, exactBefore: false })
    // A cycle of two of those calls is held back within `every` calls of that notice, then told as the same loop.
    expect(voice.speak({ at: 8, key: 2, epoch: 0, runStart: 8, evidence: [cycle([1, 2])] })).toBeUndefined()
    expect(voice.speak({ at: 10, key: 2, epoch: 0, runStart: 10, evidence: [cycle([1, 2], 4)] }))
      .toMatchObject({ again: true, exactBefore: false })
    // Only now has exact repetition been told: what stop mode counts.
    expect(voice.speak({ at: 20, key: 2, epoch: 0, runStart: 20, evidence: [cycle([1, 2], 9)] }))
      .toMatchObject({ again: true, exactBefore: true })
  })

  it('wait their turn after another plugin\'s notice on one of their calls, as a plain repeat does', () => {
    const voice = createVoice(options)
    voice.heard({ at: 3, key: 1, epoch: 0 })
    expect(voice.speak({ at: 4, key: 1, epoch: 0, runStart: 4, evidence: [noNews([1, 2, 3])] })).toBeUndefined()
    expect(voice.speak({ at: 8, key: 1, epoch: 0, runStart: 8, evidence: [noNews([1, 2, 3])] })).toBeDefined()
  })
})

describe('another plugin\'s voice', () => {
  it('holds back a plain repeat of what it said for the next `every` calls', () => {
    const voice = createVoice(options)
    voice.heard({ at: 3, key: 1, epoch: 0 })
    expect(voice.speak({ at: 4, key: 1, epoch: 0, runStart: 4, evidence: [repeat(1)] })).toBeUndefined()
    expect(voice.speak({ at: 8, key: 1, epoch: 0, runStart: 8, evidence: [repeat(1, 8)] })).toMatchObject({ again: false })
  })

  it('lets through what it did not say: another kind of evidence', () => {
    const heard = createVoice(options)
    heard.heard({ at: 3, key: 1, epoch: 0 })
    expect(heard.speak({ at: 4, key: 1, epoch: 0, runStart: 4, evidence: [error([1, 2])] })).toBeDefined()
    // A poller's repeat says nothing more.
    heard.heard({ at: 5, key: 2, epoch: 0 })
    expect(heard.speak({ at: 6, key: 2, epoch: 0, runStart: 6, evidence: [poll(2)] })).toBeUndefined()
  })

  it('holds a repeat back whatever it would add, and tells it at the loop\'s next notice clear of the other voice', () => {
    // Deny mode's notice at 4 would add its warning of refusals; one call after the other plugin's, it waits, and
    // rides the notice due at 9 (still below the refusals at 11), five calls clear.
    const voice = createVoice(options)
    voice.heard({ at: 3, key: 1, epoch: 0 })
    expect(voice.speak({ at: 4, key: 1, epoch: 0, runStart: 4, evidence: [repeat(1, 4)] })).toBeUndefined()
    expect(voice.speak({ at: 9, key: 1, epoch: 0, runStart: 9, evidence: [repeat(1, 9)] }))
      .toMatchObject({ again: false, finding: { count: 9 } })
    // The stock reminder's 3, 5 and 8 leave no slot before 13: nothing is told before then.
    const stock = createVoice(options)
    for (const at of [3, 5, 8]) stock.heard({ at, key: 1, epoch: 0 })
    const told = [4, 9, 12].map(at => stock.speak({ at, key: 1, epoch: 0, runStart: at, evidence: [repeat(1, at)] }))
    expect(told).toEqual([undefined, undefined, undefined])
  })
})

describe('bounds', () => {
  it('remembers at most `maxCalls` call identities', () => {
    const voice = createVoice({ ...options, maxCalls: 8 })
    for (let key = 0; key < 100; key++) voice.speak({ at: key * 10, key, epoch: 0, runStart: key * 10, evidence: [repeat(key)] })
    expect(voice.size).toBe(8)
  })
})
