/** What plugins did, in one order for every report: by call, and at one call notices, then refusals, then stops. */
import { describe, expect, it } from 'vitest'
import { addedTo, byCall, type Action } from '../../../src/replay/actions.ts'

const at = (call: number, kind: Action['kind'], text: string = kind): Action => ({ kind, agent: 'a', call, text })

describe('byCall', () => {
  it('orders by call, then notices before refusals before stops, keeping the order within a kind', () => {
    const taken = [at(3, 'stop'), at(3, 'refusal'), at(1, 'notice', 'second'), at(3, 'notice'), at(1, 'notice', 'first')]
    expect(byCall(taken).map(action => `${action.call} ${action.text}`)).toEqual(['1 second', '1 first', '3 notice', '3 refusal', '3 stop'])
  })
})

describe('addedTo', () => {
  it('keeps the actions the earlier list lacks: another call, agent, kind or plugin; a new text is the same action', () => {
    const earlier = [{ ...at(3, 'notice', 'old words'), plugin: 'p' }, at(5, 'refusal')]
    const now = [
      { ...at(3, 'notice', 'new words'), plugin: 'p' }, { ...at(3, 'notice'), plugin: 'q' }, { ...at(3, 'notice'), plugin: 'p', agent: 'b' },
      at(4, 'notice'), at(5, 'refusal'), at(5, 'stop'),
    ]
    expect(addedTo(earlier, now)).toEqual([now[1], now[2], now[3], now[5]])
    expect(addedTo([], now)).toEqual(now)
  })
})
