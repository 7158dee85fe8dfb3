/** Which top-level session a session belongs to: following parents up, and stopping at a cycle. */
import { describe, expect, it } from 'vitest'
import { rootSession } from '../../../src/session-logs/root-session.ts'

describe('the top-level session', () => {
  const parents = new Map([['child', 'parent'], ['grandchild', 'child'], ['orphan', 'gone'], ['a', 'b'], ['b', 'a']])
  const known = new Set(['parent', 'child', 'grandchild', 'orphan', 'a', 'b'])
  const parentOf = (session: string): string | undefined => {
    const parent = parents.get(session)
    return parent !== undefined && known.has(parent) ? parent : undefined
  }

  it('is the session itself when it has no parent', () => {
    expect(rootSession('parent', parentOf)).toBe('parent')
  })

  it('follows parents as far as they go', () => {
    expect(rootSession('child', parentOf)).toBe('parent')
    expect(rootSession('grandchild', parentOf)).toBe('parent')
  })

  it('stops where the parent is not among those known', () => {
    expect(rootSession('orphan', parentOf)).toBe('orphan')
  })

  it('ends the walk at a cycle of parents, at the last session before it comes round', () => {
    expect(rootSession('a', parentOf)).toBe('b')
    expect(rootSession('b', parentOf)).toBe('a')
  })
})
