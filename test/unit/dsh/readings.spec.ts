import { describe, expect, it } from 'vitest'
import { LOOP_KINDS } from '../../../src/core/kinds.ts'
import { isRefusalResult, isStopReason, readPhrase, readRefusal, readSummary, stopPhraseOf, templatePattern } from '../../../src/dsh/readings.ts'
import { denialReason } from '../../../src/messages/refusals.ts'
import { stopReason } from '../../../src/messages/notices.ts'
import { WORDINGS } from '../../../src/messages/wording.ts'
import { fill, templateParts } from '../../../src/words/template.ts'

/** A template filled with values that look like what the brake fills in: a number where a count goes. */
const filled = (template: string): string => {
  const names = templateParts(template).filter((_, i) => i % 2 === 1)
  const counts = ['count', 'laps', 'length', 'calls', 'cuts', 'copies', 'times']
  return fill(template, Object.fromEntries(names.map(name => [name, counts.includes(name) ? '7' : `some ${name} × 3, same result`])))
}

describe('templatePattern', () => {
  it('reads a template\'s values back, counts as numbers, and a text cut short as far as it goes', () => {
    expect(templatePattern('{tool} × {count}, {short}').exec('my × tool × 12, same result')?.groups)
      .toEqual({ tool: 'my × tool', count: '12', short: 'same result' })
    expect(templatePattern('cycle × {laps}: {cycle}').exec('cycle × 3: a → b…')?.groups).toEqual({ laps: '3', cycle: 'a → b…' })
    expect(templatePattern('{count} calls in a row (x)').exec('ten calls in a row (x)')).toBeNull()
  })
})

describe('reading the brake\'s own words back', () => {
  it.each(LOOP_KINDS)('reads every summary of %s back as its own kind, whatever a general template would make of it', (kind) => {
    for (const template of WORDINGS[kind].summaries) expect(readSummary(filled(template))?.kind, template).toBe(kind)
  })

  it.each(LOOP_KINDS)('reads every phrase of %s back as its own kind, with the count it holds', (kind) => {
    for (const template of WORDINGS[kind].phrases) {
      const reading = readPhrase(filled(template))
      expect(reading?.kind, template).toBe(kind)
      expect(reading?.fields['count'] ?? reading?.fields['calls'] ?? reading?.fields['cuts'], template).toBe('7')
    }
  })

  it('reads nothing from a text no template makes', () => {
    expect(readSummary('a note from another plugin')).toBeUndefined()
    expect(readPhrase('something else entirely')).toBeUndefined()
  })

  it('tells a refusal and a stop by their opening, and reads what they name', () => {
    const refusal = `Error: ${denialReason('read', 10)}`
    expect(isRefusalResult(refusal)).toBe(true)
    expect(isRefusalResult('Error: no such file')).toBe(false)
    expect(readRefusal(refusal)).toMatchObject({ tool: 'read', count: '10' })
    const stop = stopReason({ refused: false, loop: { kind: 'cycle', tools: ['grep', 'read'], laps: 8, sameResults: true } })
    expect(isStopReason(stop)).toBe(true)
    expect(isStopReason('the user cancelled')).toBe(false)
    expect(readPhrase(stopPhraseOf(stop))).toMatchObject({ kind: 'cycle', fields: { calls: '16' } })
  })
})
