import { describe, expect, it } from 'vitest'
import { denialReason } from '../../../src/messages/refusals.ts'

describe('denial reason', () => {
  it('says what happened and how to get unstuck, bounded', () => {
    expect(denialReason('read', 10)).toBe('dsh-brake refused this call: `read` has already run 10 times with these exact arguments while nothing changed; another identical call will not give a different answer. Use the results you already have, change the arguments or the approach, or stop and tell the user what is blocking you. The same call is allowed again once something changes (a successful edit, a poll that reports news) or the user speaks.')
    expect(denialReason('read', 10, false)).toBe('dsh-brake refused this call: `read` has already run 10 times with these exact arguments since the last user message; another identical call will not give a different answer. Use the results you already have, change the arguments or the approach, or stop and tell the user what is blocking you. The same call is allowed again after the next user message.')
    expect(denialReason('x'.repeat(100_000), 10).length).toBeLessThan(600)
    // What ran, then how many were refused since: the count never takes in a refused attempt.
    expect(denialReason('read', 10, true, 1)).toContain('`read` has already run 10 times with these exact arguments while nothing changed, and 1 more was refused; another')
    expect(denialReason('read', 10, false, 2)).toContain('since the last user message, and 2 more were refused; another')
  })
})
