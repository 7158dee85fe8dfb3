/**
 * What a refused config edit is told as, from the error the Loader rolled back with; the whole path, from a saved edit
 * to the line on dsh's terminal, runs on the real Loader in test/loop/profile.spec.ts.
 */
import { describe, expect, it } from 'vitest'
import { refusal, unreadPatchFile } from '../../../src/dsh/reload.ts'

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
    // A file DSH could not read at all is no entry's refusal: told by unreadPatchFile, below.
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

describe('unreadPatchFile', () => {
  /** What dsh-app-boot throws for a patch file it cannot take as a whole, as HMR passes it on. */
  const unread = (why: string): Error => new Error(`dsh: ${why}`)

  it('tells a patch file DSH read empty or half written, and what to do: save it again, or touch it', () => {
    const line = unreadPatchFile('dsh-brake', FILE, unread(`patches ${FILE} must be a top-level YAML array of loader patch entries`))
    expect(line).toBe(`dsh-brake: DSH could not read your edit of ${FILE} (it found no list of rows in it), so none of it applies: `
      + 'every plugin runs on as before, dsh-brake too. A save that writes the file in place (`cat >`, `cp`, some editors) can be read '
      + `half written, and DSH does not read it again until the next change: save it again, or \`touch ${FILE}\`. If the file is wrong, `
      + 'fix it (`dsh-brake doctor` names the line).\n')
  })

  it('gives DSH\'s own reason for a file that is not YAML, or not rows', () => {
    expect(unreadPatchFile('dsh-brake', FILE, unread(`failed to parse patches ${FILE}: YAMLException: bad indentation of a mapping entry (3:5)`)))
      .toContain('(it is not valid YAML: bad indentation of a mapping entry (3:5))')
    expect(unreadPatchFile('dsh-brake', FILE, unread(`patches entry 2 in ${FILE} must be a mapping (a loader patch entry)`)))
      .toContain('(its entry 2 is not a mapping)')
  })

  it('says nothing of another file, or of a refusal that is an entry\'s', () => {
    expect(unreadPatchFile('dsh-brake', FILE, unread('patches /p/other.yml must be a top-level YAML array of loader patch entries'))).toBeUndefined()
    expect(unreadPatchFile('dsh-brake', FILE, loaderError('dsh-brake', 'dsh-brake', new Error('invalid config')))).toBeUndefined()
  })
})
