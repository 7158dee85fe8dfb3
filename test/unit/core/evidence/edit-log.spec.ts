import { describe, expect, it } from 'vitest'
import { EditLog } from '../../../../src/core/evidence/edit-log.ts'

describe('the latest edits', () => {
  it('keep the latest `bound` edits, each with its call, file and mark, the oldest written over', () => {
    const log = new EditLog(3)
    for (let at = 1; at <= 5; at++) log.add(at, `f${at}.py`, at % 2)
    expect(log.size).toBe(3)
    const oldestFirst = [3, 2, 1].map(back => log.slotBack(back)).map(slot => [log.ats[slot], log.files[slot], log.marks[slot]])
    expect(oldestFirst).toEqual([[3, 'f3.py', 1], [4, 'f4.py', 0], [5, 'f5.py', 1]])
    expect(log.ats).toHaveLength(3)
  })

  it('mark an edit 0 unless its reader says otherwise, and forget everything when cleared', () => {
    const log = new EditLog(4)
    log.add(7, 'a.py')
    expect([log.size, log.marks[log.slotBack(1)]]).toEqual([1, 0])
    log.clear()
    expect([log.size, log.made, log.ats.length, log.files.length, log.marks.length]).toEqual([0, 0, 0, 0, 0])
  })
})
