import { describe, expect, it } from 'vitest'
import { foldText } from '../../../../src/core/stream/fold.ts'
import { createQuotedRun, quotableText } from '../../../../src/core/stream/quotes.ts'

describe('the text a response may quote', () => {
  it('is the latest characters of its sources, oldest first, kept apart by a blank line', () => {
    expect(quotableText(['newest', 'older', 'oldest'], 100)).toBe('oldest\n\nolder\n\nnewest')
    expect(quotableText(['newest', 'older', 'oldest'], 10)).toBe('lder\n\nnewest')
    expect(quotableText([], 10)).toBe('')
  })
})

describe('how long a run the request holds', () => {
  const line = 'Waiting for rollout to finish: 0 of 3 updated replicas are available...\n'

  it('is the run the sample lies in, 0 when the sample is not there', () => {
    const request = foldText(`kubectl said:\n${line.repeat(100)}done\n`)
    const period = foldText(line).length
    const run = createQuotedRun(() => request)
    expect(run(foldText(line.repeat(4)), period)).toBe(100 * period)
    expect(run('not in the request at all', period)).toBe(0)
  })

  it('follows a run that opens the request to its first copy, and no further', () => {
    const folded = foldText('DEBUG: Rectangle _update_patch_limits max_y=1.0\n'.repeat(112))
    const period = folded.length / 112
    expect(createQuotedRun(() => folded)(folded.slice(-4 * period), period)).toBe(folded.length)
  })

  it('is the longest of the runs the sample lies in: an output cut in its middle shows a run short, then long', () => {
    const join = foldText('DEBUG: join table=django_content_type parent=None reuse=None\n')
    const elided = `</output_head>\n<elided_chars>\n${'elided '.repeat(30)}\n</elided_chars>\n<output_tail>\n`
    const request = `Found 0 test(s).\n${join.repeat(23)}${elided}${join.repeat(70)}FAILED\n`
    expect(createQuotedRun(() => request)(join.repeat(3), join.length)).toBe(70 * join.length)
  })

  it('follows a run through a glitch every 8 copies, as the watch does, not through more', () => {
    const unit = 'ISIS-'
    const glitched = Array.from({ length: 64 }, (_, i) => (i % 9 === 8 ? 'ISI-' : unit)).join('')
    const run = createQuotedRun(() => `<${glitched}>`)
    expect(run(unit.repeat(3), unit.length)).toBeGreaterThan(60 * unit.length)
    const broken = Array.from({ length: 64 }, (_, i) => (i % 4 === 3 ? 'ISI-' : unit)).join('')
    expect(createQuotedRun(() => `<${broken}>`)(unit.repeat(3), unit.length)).toBeLessThan(8 * unit.length)
  })

  it('reads the request only when a run is first looked up, and once', () => {
    let reads = 0
    const run = createQuotedRun(() => {
      reads++
      return 'court court court'
    })
    expect(reads).toBe(0)
    run('court ', 6)
    run('court ', 6)
    expect(reads).toBe(1)
  })
})
