/**
 * What a refused config edit is told as, from the error the Loader rolled back with; the whole path, from a saved edit
 * to the line on dsh's terminal, runs on the real Loader in test/loop/profile.spec.ts.
 */
import { describe, expect, it } from 'vitest'
import { refusal } from '../../../src/dsh/reload.ts'

const FILE = '/p/cordis.patch.yml'

/** An error as the Loader wraps one entry's failure inside the root include's. */
function loaderError(entry: string, name: string, inner: Error): Error {
  const entryError = new Error(`failed to apply loader entry ${entry} (${name}): ${inner.message}`, { cause: inner })
  return new Error(`failed to apply loader entry include (cordis:include): ${entryError.message}`, { cause: entryError })
}

describe('refusal', () => {
  it('says nothing of another plugin\'s refused edit', () => {
    const error = loaderError('repeat-tool-reminder', '@deepseek-ai/dsh-repeat-tool-reminder', new TypeError('invalid config:\n  - $.thresholds expected array'))
    expect(refusal('dsh-brake', FILE, error)).toBeUndefined()
    expect(refusal('dsh-brake', FILE, new Error('dsh: failed to parse patches /p/cordis.patch.yml: bad indentation'))).toBeUndefined()
  })

  it('tells an apply that threw by the first line of what it threw, without the Loader\'s preamble', () => {
    const error = loaderError('dsh-brake', 'dsh-brake', new Error('out of memory\n    at apply'))
    expect(refusal('dsh-brake', FILE, error)).toBe(`dsh-brake: your edit of ${FILE} was not applied; dsh-brake runs on with its previous config `
      + '(its counts start afresh): out of memory. Fix it and save again (`dsh-brake doctor` names the line).\n')
  })

  it('finds its issues among several entries\' failures', () => {
    const brake = loaderError('dsh-brake', 'dsh-brake', new TypeError('invalid config:\n  - dsh-brake: `sequenceLength` must be an integer from 2 to 32, got 40'))
    const other = loaderError('timer', 'cordis-plugin-timer', new Error('no clock'))
    expect(refusal('dsh-brake', FILE, new AggregateError([other, brake], 'loader entries failed to apply')))
      .toContain(': `sequenceLength` must be an integer from 2 to 32, got 40. Fix it')
  })
})
