import { describe, expect, it } from 'vitest'
import { createResultVersions } from '../../src/core/result-versions.ts'
import { REFUSED, resultOf } from '../../src/core/results.ts'

describe('result versions', () => {
  it('moves the version only when the result changes (normalized), and not on a refusal', () => {
    const versions = createResultVersions(8)
    const seen = ['running 1', 'running 1', 'refused', 'running 2', 'running 2 (pid 4411)', 'running 2 (pid 4412)', 'done']
      .map(text => text === 'refused' ? versions.observe(7, REFUSED, true) : versions.observe(7, resultOf(text), false))
    expect(seen).toEqual([1, 1, 1, 2, 3, 3, 4])
  })

  it('keeps identities apart, and starts a forgotten one afresh', () => {
    const versions = createResultVersions(2)
    expect(versions.observe(1, resultOf('a'), false)).toBe(1)
    expect(versions.observe(2, resultOf('a'), false)).toBe(1)
    expect(versions.observe(1, resultOf('b'), false)).toBe(2)
    // A third identity takes the least recently seen one's place (2); 1 stays.
    expect(versions.observe(3, resultOf('a'), false)).toBe(1)
    expect(versions.observe(1, resultOf('b'), false)).toBe(2)
    expect(versions.observe(2, resultOf('a'), false)).toBe(1)
    expect(versions.size).toBe(2)
    versions.clear()
    expect(versions.size).toBe(0)
  })
})
